import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

@Suite("TraceScene and the scene file")
struct TraceSceneTests {
    /// A scene with every kind of part, awkward numbers and awkward keys.
    static let awkward = TraceScene(
        referenceBounds: CGRect(x: -0.1, y: 1.0 / 3.0, width: 640, height: 1e-5),
        boundaries: [
            .init(points: [CGPoint(x: 0, y: 0), CGPoint(x: 0.1 + 0.2, y: -0.0)]),
            .init(points: [CGPoint(x: 1, y: 1), CGPoint(x: 2, y: 1), CGPoint(x: 2, y: 3)], isClosed: true),
        ],
        items: [
            .init(key: "box \"1\", the first\nof two", parts: [.init(.rectangle(CGSize(width: 36, height: 1.0 / 7.0)))]),
            .init(key: "1", parts: [
                .init(.ellipse(CGSize(width: 26, height: 13)), center: CGPoint(x: -13, y: 6.5), angle: 0.3),
                .init(.path([CGPoint(x: 0, y: -9), CGPoint(x: 7.794228634059948, y: 4.5), CGPoint(x: -7.794228634059948, y: 4.5)]),
                      center: CGPoint(x: 13, y: 6.5)),
            ]),
            .init(key: "ünïcødé ✓ \\ /", parts: []),
        ],
        attachments: [
            .init(anchor: CGPoint(x: 320, y: 60), items: [.init(item: 0)]),
            .init(anchor: nil, items: [.init(item: 0), .init(item: 1, offset: CGPoint(x: -13, y: 6.5))]),
        ],
        snapPoints: [CGPoint(x: 1e300, y: -1e-300)]
    )

    /// A frame of the awkward scene's items (the fourth is `late`), named as their keys say.
    static func report(_ index: Int, items: Int) -> FrameReport {
        let names: [String?] = ["box \"1\", the first\nof two", nil, "ünïcødé ✓ \\ /", "late"]
        return FrameReport(index: index, time: Double(index) / 60, steps: 1, items: (0 ..< items).map {
            FrameReport.Item(name: names[$0], center: CGPoint(x: Double($0) * 10, y: 5))
        })
    }

    /// Every value comes back bit for bit, whatever changes between frames, going forward and back.
    @Test func scenesRoundTripThroughTheSceneFile() throws {
        var later = Self.awkward
        later.items[1].parts[0].angle = -2.5
        later.items.append(.init(key: "late", parts: [.init(.rectangle(CGSize(width: 5, height: 5)))]))
        later.attachments.removeFirst()
        later.snapPoints = []
        later.referenceBounds = nil
        let writer = CSVFrameWriter()
        writer.write(Self.report(0, items: 3), scene: Self.awkward)
        writer.write(Self.report(1, items: 3), scene: Self.awkward)   // unchanged: no scene lines
        writer.write(Self.report(2, items: 4), scene: later)
        let lines = writer.sceneText.split(separator: "\n")
        #expect(lines.first == "{\"format\":\"swift-dynamics-trace-scene\",\"version\":1}")
        #expect(lines.count == 1 + 7 + 5, "\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { !$0.contains("\r") })

        let reader = TraceReader(text: writer.text, sceneText: writer.sceneText)
        let names = ["box \"1\", the first\nof two", nil, "ünïcødé ✓ \\ /"]
        for (position, expected) in [(0, Self.awkward), (1, Self.awkward), (2, later), (0, Self.awkward), (2, later)] {
            let frame = try #require(reader.frame(at: position))
            #expect(frame.scene == expected, "frame \(position)")
            #expect(frame.report.items.prefix(3).map(\.name) == names)
        }
        #expect(reader.diagnostics.isEmpty)
        #expect(TraceSceneChange.changes(from: later, to: later, frame: 9).isEmpty)
    }

    @Test func scenePathsSitBesideTheTrace() {
        #expect(TraceScene.scenePath(forTrace: "rain.csv") == "rain.scene.jsonl")
        #expect(TraceScene.scenePath(forTrace: "/tmp/a.b/RAIN.CSV") == "/tmp/a.b/RAIN.scene.jsonl")
        #expect(TraceScene.scenePath(forTrace: "trace") == "trace.scene.jsonl")
        #expect(TraceScene.scenePath(forTrace: "trace.txt") == "trace.txt.scene.jsonl")
    }

    /// `record` writes the CSV exactly as `write` always has, and the scene beside it; a stale
    /// scene file from an earlier trace is removed when the path is reused.
    @Test func recordingToAFileWritesBothFiles() throws {
        let path = FileManager.default.temporaryDirectory.path + "/swift-dynamics-record-\(UUID().uuidString).csv"
        let scenePath = TraceScene.scenePath(forTrace: path)
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: scenePath)
        }
        let scene = UIKitScenes.named("group_tumble")!.make()
        let writer = try CSVFrameWriter(path: path)
        #expect(writer.scenePath == scenePath)
        let plain = CSVFrameWriter()
        scene.animator.addFrameObserver { plain.write($0) }
        let token = writer.record(scene.animator)
        for k in 0 ..< 30 { scene.step(frame: k) }
        writer.close()
        #expect(writer.error == nil && writer.sceneText.isEmpty)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == plain.text)
        let sceneText = try String(contentsOfFile: scenePath, encoding: .utf8)
        // Two groups, the staircase, the bounds: the scene is written once, not per frame.
        #expect(sceneText.split(separator: "\n").count == 5, "\(sceneText)")
        let reader = try TraceReader(path: path)
        #expect(reader.scenePath == scenePath && reader.hasScene)
        let frame = try #require(reader.frame(at: 29))
        #expect(frame.scene.items.map { $0.parts.count } == [3, 4])
        #expect(frame.scene.boundaries.count == 1 && frame.scene.referenceBounds == CGRect(x: 0, y: 0, width: 640, height: 400))
        scene.animator.removeFrameObserver(token)

        // Reusing the path for a trace without a scene empties the old scene file (in place, as
        // the CSV is written), and an empty scene file is none.
        let again = try CSVFrameWriter(path: path)
        again.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: scenePath)).isEmpty)
        #expect(try TraceReader(path: path).hasScene == false)
    }

    /// Moving anchors and hopping snap points are written as they change, once a frame at most.
    @Test func changingDecorationsAreRecorded() throws {
        for name in ["attachments", "snap"] {
            let scene = UIKitScenes.named(name)!.make()
            let writer = CSVFrameWriter()
            writer.record(scene.animator)
            for k in 0 ..< 100 { scene.step(frame: k) }
            let lines = writer.sceneText.split(separator: "\n")
            if name == "attachments" {
                #expect(lines.filter { $0.contains("\"attachments\"") }.count == 100)
            } else {
                // Snap points hop every 90 steps: the first point, then the second.
                #expect(lines.filter { $0.contains("\"snapPoints\"") }.count == 2)
            }
            let reader = TraceReader(text: writer.text, sceneText: writer.sceneText)
            let last = try #require(reader.frame(at: 99))
            let first = try #require(reader.frame(at: 0))
            #expect(first.scene != last.scene)
        }
    }

    /// The scene of a live animator describes what the engine simulates: sizes as sanitised,
    /// a `.path` item's convex outline (its hull), a bad path's rectangle fallback.
    @Test func liveScenesDescribeTheSimulatedShapes() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 100, height: 100))
        let negative = BasicDynamicItem(center: CGPoint(x: 50, y: 50), size: CGSize(width: -10, height: 20), name: "negative")
        let concave = BasicDynamicItem(center: CGPoint(x: 20, y: 20), size: CGSize(width: 20, height: 20), collisionBoundsType: .path)
        let path = BezierPath()
        for p in [CGPoint(x: -10, y: -10), CGPoint(x: 0, y: 0), CGPoint(x: 10, y: -10), CGPoint(x: 10, y: 10), CGPoint(x: -10, y: 10)] {
            if path.isEmpty { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.close()
        concave.collisionBoundingPath = path
        let pathless = BasicDynamicItem(center: CGPoint(x: 80, y: 80), size: CGSize(width: 12, height: 8), collisionBoundsType: .path)
        animator.addBehavior(CollisionBehavior(items: [negative, concave, pathless]))
        let scene = TraceScene(animator)
        #expect(scene.items.map(\.key) == ["negative", "1", "2"])
        #expect(scene.items[0].parts == [.init(.rectangle(CGSize(width: 10, height: 20)))])
        guard case .path(let hull) = scene.items[1].parts[0].shape else {
            Issue.record("expected a path")
            return
        }
        #expect(hull.count == 4 && !hull.contains(CGPoint(x: 0, y: 0)))
        #expect(scene.items[2].parts == [.init(.rectangle(CGSize(width: 12, height: 8)))])
        #expect(scene.attachments.isEmpty && scene.snapPoints.isEmpty && scene.boundaries.isEmpty)
    }
}
