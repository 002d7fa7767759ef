import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Record a scene, replay it: the replayed pictures are the live ones, character for character,
/// for every scene of the catalogue and the gallery (`UIKitScenes.all`), plain and braille, the
/// trace read back from the files the recording wrote.
@Suite("Trace round trip")
struct TraceRoundTripTests {
    /// Frames recorded per scene: 1.5 s at 60 fps reaches the rain's sixth drop, the pyramid's
    /// thrown ball is not yet needed, and every scene has moved.
    static let frames = 90

    @Test(arguments: UIKitScenes.all.map(\.name))
    func replayedFramesEqualTheLiveOnes(scene name: String) throws {
        let scene = UIKitScenes.named(name)!.make()
        let writer = CSVFrameWriter()
        writer.record(scene.animator)
        // The same trace as files, as `playground --csv` writes it and `playground replay` reads it.
        let path = FileManager.default.temporaryDirectory.path + "/swift-dynamics-roundtrip-\(name)-\(UUID().uuidString).csv"
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: TraceScene.scenePath(forTrace: path))
        }
        let file = try CSVFrameWriter(path: path)
        file.record(scene.animator)
        var plain = ASCIIRenderer(width: 72, height: 22)
        var braille = ASCIIRenderer(width: 60, height: 18)
        braille.braille = true
        plain.showsStatusLine = true
        var live: [Int: (String, String)] = [:]
        var framesWithItems = 0
        // Drawn from a frame observer, as a live viewer does: the world exactly as the frame left it.
        scene.animator.addFrameObserver { report in
            let status = "frame \(report.index)"
            if !report.items.isEmpty { framesWithItems += 1 }   // a frame without items has no rows
            live[report.index] = (plain.render(scene.animator, statusLine: status), braille.render(scene.animator, statusLine: status))
        }
        for k in 0 ..< Self.frames { scene.step(frame: k) }

        file.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == writer.text)
        #expect(try String(contentsOfFile: TraceScene.scenePath(forTrace: path), encoding: .utf8) == writer.sceneText)

        let reader = try TraceReader(path: path)
        #expect(reader.hasScene)
        var replayed = 0
        while let frame = reader.nextFrame() {
            let status = "frame \(frame.report.index)"
            let (livePlain, liveBraille) = try #require(live[frame.report.index])
            let p = plain.render(frame.report, scene: frame.scene, statusLine: status)
            let b = braille.render(frame.report, scene: frame.scene, statusLine: status)
            #expect(p == livePlain, "frame \(frame.position) of \(name):\nlive\n\(livePlain)\nreplayed\n\(p)")
            #expect(b == liveBraille, "braille frame \(frame.position) of \(name)")
            if p != livePlain || b != liveBraille { break }
            replayed += 1
        }
        #expect(replayed == framesWithItems)
        #expect(reader.frameCount == framesWithItems)
        #expect(framesWithItems >= Self.frames - 1)
        #expect(reader.diagnostics == [])
    }
}
