import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Real traces with random damage: the reader never crashes, never gives a frame the renderers
/// cannot draw, and reads the same frame the same way forward and back.
@Suite("Trace fuzzing")
struct TraceFuzzTests {
    /// A real trace of the chain (attachments between items and to an anchor, ellipses and
    /// rectangles, the reference bounds): 12 frames, about 11 KB.
    static let trace: (csv: [UInt8], scene: [UInt8]) = {
        let scene = UIKitScenes.named("chain")!.make()
        let writer = CSVFrameWriter()
        writer.record(scene.animator)
        for k in 0 ..< 12 { scene.step(frame: k) }
        return (Array(writer.text.utf8), Array(writer.sceneText.utf8))
    }()

    /// Bytes that mean something to a CSV or JSON reader, and some that mean nothing.
    static let interesting: [UInt8] = Array(",\"\r\n0123456789-+.eEnaifINF:[]{} ".utf8) + [0x00, 0x7F, 0xC3, 0xFF]

    /// `bytes` with one to eight random changes: a byte replaced, inserted or deleted, a run
    /// repeated or removed, or the end cut off.
    static func mutate(_ bytes: [UInt8], _ g: inout SplitMix64Generator) -> [UInt8] {
        var out = bytes
        for _ in 0 ... Int(g.next() % 8) {
            guard !out.isEmpty else { break }
            let at = Int(g.next() % UInt64(out.count))
            let byte = g.next() % 3 == 0 ? UInt8(truncatingIfNeeded: g.next()) : interesting[Int(g.next() % UInt64(interesting.count))]
            switch g.next() % 6 {
            case 0: out[at] = byte
            case 1: out.insert(byte, at: at)
            case 2: out.remove(at: at)
            case 3:
                let end = min(out.count, at + 1 + Int(g.next() % 200))
                out.insert(contentsOf: out[at ..< end], at: end)
            case 4: out.removeSubrange(at ..< min(out.count, at + 1 + Int(g.next() % 200)))
            default: out.removeSubrange(at...)
            }
        }
        return out
    }

    /// Reads every frame of a (damaged) trace and checks what a player relies on.
    static func check(csv: [UInt8], scene: [UInt8]?, _ g: inout SplitMix64Generator, svg: Bool) {
        let reader = TraceReader(text: String(decoding: csv, as: UTF8.self), sceneText: scene.map { String(decoding: $0, as: UTF8.self) })
        var renderer = ASCIIRenderer(width: 40, height: 12)
        var frames: [TraceFrame] = []
        while let frame = reader.nextFrame() {
            #expect(frame.position == frames.count)
            #expect(frame.scene.items.count == frame.report.items.count)
            #expect(frame.report.items.allSatisfy { $0.center.x.isFinite && $0.center.y.isFinite && $0.angle.isFinite })
            #expect(frame.scene.attachments.allSatisfy { $0.items.allSatisfy { $0.item < frame.report.items.count } })
            renderer.braille = frames.count % 2 == 1
            #expect(renderer.lines(frame.report, scene: frame.scene).count == 12)
            if svg { #expect(SVGRenderer().svg(frame.report, scene: frame.scene).hasSuffix("</svg>\n")) }
            frames.append(frame)
            if frames.count > 10_000 { break }
        }
        #expect(reader.frameCount == frames.count)
        let lines = csv.count { $0 == UInt8(ascii: "\n") } + 1
        let sceneLines = (scene?.count { $0 == UInt8(ascii: "\n") } ?? 0) + 1
        for d in reader.diagnostics {
            #expect(d.line >= 1 && d.line <= (d.file == .frames ? lines + 1 : sceneLines), "\(d)")
            #expect(!d.message.isEmpty)
        }
        #expect(reader.diagnosticCount >= reader.diagnostics.count)
        // Going back gives the same frames, and reports nothing new.
        let reported = reader.diagnosticCount
        for _ in 0 ..< 4 where !frames.isEmpty {
            let k = Int(g.next() % UInt64(frames.count))
            #expect(reader.frame(at: k) == frames[k])
        }
        #expect(reader.frame(at: frames.count) == nil)
        #expect(reader.diagnosticCount == reported)
        if svg { #expect(SVGRenderer().animatedSVG(reader).hasSuffix("</svg>\n")) }
    }

    @Test func damagedFramesNeverCrashTheReader() {
        var g = SplitMix64Generator(seed: 19)
        for round in 0 ..< 300 {
            let csv = Self.mutate(Self.trace.csv, &g)
            Self.check(csv: csv, scene: round % 5 == 4 ? nil : Self.trace.scene, &g, svg: round % 10 == 0)
        }
    }

    @Test func damagedSceneFilesNeverCrashTheReader() {
        var g = SplitMix64Generator(seed: 91)
        for round in 0 ..< 150 {
            let scene = Self.mutate(Self.trace.scene, &g)
            Self.check(csv: Self.trace.csv, scene: scene, &g, svg: round % 10 == 0)
        }
    }

    /// Both files damaged at once, and bytes that are no trace at all.
    @Test func garbageNeverCrashesTheReader() {
        var g = SplitMix64Generator(seed: 7)
        for round in 0 ..< 100 {
            let csv = round % 4 == 0
                ? (0 ..< Int(g.next() % 2000)).map { _ in Self.interesting[Int(g.next() % UInt64(Self.interesting.count))] }
                : Self.mutate(Self.mutate(Self.trace.csv, &g), &g)
            Self.check(csv: csv, scene: Self.mutate(Self.trace.scene, &g), &g, svg: false)
        }
    }
}
