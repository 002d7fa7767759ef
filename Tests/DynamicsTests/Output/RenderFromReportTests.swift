import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Drawing a frame from the report its observer receives, and recording it, with the scene the
/// animator keeps between frames, gives the bytes the old path gave: a scene described from
/// scratch and every pose read again, every frame. The old path is rebuilt here from the parts it
/// was made of (`legacyScene`, `LegacyRecorder`, the recorder as it was before the cache) and run
/// beside the new one on the same animator, frame by frame.
@Suite("Rendering and recording from the frame report")
struct RenderFromReportTests {
    // MARK: The old path

    /// The scene as `traceScene()` built it before the cache: everything described afresh.
    static func legacyScene(_ animator: DynamicAnimator) -> TraceScene {
        let decorations = animator.traceAttachments()
        var scene = TraceScene(referenceBounds: animator.usableReferenceBounds)
        scene.boundaries = animator.traceBoundaries()
        scene.items = animator.records.enumerated().map { animator.traceItem($1, position: $0) }
        scene.attachments = decorations.attachments
        scene.snapPoints = decorations.snapPoints
        return scene
    }

    /// The scene recorder as it was before the cache: boundaries and attachments built every
    /// frame, item descriptions rebuilt when their inputs changed.
    final class LegacyRecorder {
        private var scene: TraceScene?
        private var inputs: [DynamicAnimator.TraceItemInputs] = []
        private(set) var text = ""

        func record(_ animator: DynamicAnimator, frame: Int) {
            var out: [TraceSceneChange] = []
            let bounds = animator.usableReferenceBounds
            let boundaries = animator.traceBoundaries()
            let decorations = animator.traceAttachments()
            let first = scene == nil
            var current = scene ?? TraceScene()
            if first || current.referenceBounds != bounds {
                current.referenceBounds = bounds
                out.append(TraceSceneChange(frame: frame, kind: .referenceBounds(bounds)))
            }
            if current.boundaries != boundaries {
                current.boundaries = boundaries
                out.append(TraceSceneChange(frame: frame, kind: .boundaries(boundaries)))
            }
            for (position, record) in animator.records.enumerated() {
                let now = animator.traceItemInputs(record, position: position)
                if position < inputs.count, inputs[position] == now { continue }
                let item = animator.traceItem(record, position: position)
                if position < inputs.count {
                    inputs[position] = now
                    if current.items[position] == item { continue }
                    current.items[position] = item
                } else {
                    inputs.append(now)
                    current.items.append(item)
                }
                out.append(TraceSceneChange(frame: frame, kind: .item(position: position, item)))
            }
            if current.attachments != decorations.attachments {
                current.attachments = decorations.attachments
                out.append(TraceSceneChange(frame: frame, kind: .attachments(decorations.attachments)))
            }
            if current.snapPoints != decorations.snapPoints {
                current.snapPoints = decorations.snapPoints
                out.append(TraceSceneChange(frame: frame, kind: .snapPoints(decorations.snapPoints)))
            }
            scene = current
            guard !out.isEmpty else { return }
            if text.isEmpty { text += TraceSceneChange.headerLine + "\n" }
            for change in out { text += change.jsonLine + "\n" }
        }
    }

    // MARK: Old and new side by side

    /// What a run compared.
    struct Comparison {
        var frames = 0
        var asciiMismatches: [Int] = []
        var svgMismatches: [Int] = []
    }

    /// Runs `frames` frames of `animator` (`step` runs one, given its number), comparing in a
    /// frame observer every frame: the new ASCII path (`render(_:of:)`; plain, braille, stretched), the
    /// old API (`render(_:)`, now cached) and the old path rebuilt; the same for SVG. Returns the
    /// comparison and the new and old scene files, and the CSV of the recorder.
    typealias Outcome = (comparison: Comparison, new: String, old: String, csv: String, plainCSV: String)

    static func compare(_ animator: DynamicAnimator, frames: Int, width: Int = 72, height: Int = 22,
                        step: (Int) -> Void) -> Outcome {
        var result = Comparison()
        let writer = CSVFrameWriter()
        writer.record(animator)
        let plain = CSVFrameWriter()
        let legacy = LegacyRecorder()
        let ascii = ASCIIRenderer(width: width, height: height)
        var braille = ASCIIRenderer(width: width / 2, height: height / 2)
        braille.braille = true
        var stretched = ASCIIRenderer(width: width, height: height / 2)
        stretched.correctsAspectRatio = false
        stretched.showsStatusLine = false
        let svg = SVGRenderer()
        let token = animator.addFrameObserver { report in
            legacy.record(animator, frame: report.index)
            plain.write(report)
            result.frames += 1
            let old = legacyScene(animator)
            let oldReport = animator.makeFrameReport(steps: 0)
            for renderer in [ascii, braille, stretched] {
                let new = renderer.render(report, of: animator)
                let oldAPI = renderer.render(animator)
                let oldPath = renderer.render(oldReport, scene: old, statusLine: renderer.statusLine(for: animator))
                if new != oldPath || oldAPI != oldPath { result.asciiMismatches.append(report.index) }
            }
            let newSVG = svg.svg(report, of: animator)
            let oldSVG = svg.svg(report, scene: old)
            if newSVG != oldSVG || svg.svg(animator) != svg.svg(oldReport, scene: old) {
                result.svgMismatches.append(report.index)
            }
        }
        for k in 0 ..< frames { step(k) }
        animator.removeFrameObserver(token)
        return (result, writer.sceneText, legacy.text, writer.text, plain.text)
    }

    static let galleryNames = UIKitScenes.all.map(\.name)

    /// Every scene of the catalogue and gallery, 90 frames: the new path draws and records the
    /// same bytes as the old, every frame.
    @Test(arguments: galleryNames)
    func sameBytesAsTheOldPath(_ name: String) throws {
        let scene = try #require(UIKitScenes.named(name)).make()
        let (comparison, new, old, csv, plainCSV) = Self.compare(scene.animator, frames: 90) { scene.step(frame: $0) }
        #expect(comparison.frames == 90)
        let ascii = comparison.asciiMismatches.prefix(5), svg = comparison.svgMismatches.prefix(5)
        #expect(ascii.isEmpty, "\(name): ASCII differs at frames \(ascii)")
        #expect(svg.isEmpty, "\(name): SVG differs at frames \(svg)")
        #expect(!new.isEmpty && new == old, "\(name): the scene file differs")
        #expect(csv == plainCSV)
    }

    /// A scene whose structure changes all the time, between frames and inside the frame's own
    /// callbacks: items join (a group too) and leave, one is renamed, one resized and updated, a
    /// boundary comes and goes, an anchor and a snap point move, the reference view is resized,
    /// a snapshot is restored. Every frame the new path gives the old path's bytes.
    @Test func sameBytesWhileTheStructureChanges() throws {
        let view = BasicDynamicItem(center: CGPoint(x: 200, y: 150), size: CGSize(width: 400, height: 300))
        let animator = DynamicAnimator(referenceView: view)
        let a = BasicDynamicItem(center: CGPoint(x: 100, y: 60), size: CGSize(width: 40, height: 30), name: "a")
        let b = BasicDynamicItem(center: CGPoint(x: 200, y: 60), size: CGSize(width: 30, height: 30),
                                 collisionBoundsType: .ellipse)
        let c = BasicDynamicItem(center: CGPoint(x: 300, y: 60), size: CGSize(width: 36, height: 36),
                                 collisionBoundsType: .path, name: "c")
        let triangle = BezierPath()
        triangle.move(to: CGPoint(x: 0, y: -18))
        triangle.addLine(to: CGPoint(x: 18, y: 18))
        triangle.addLine(to: CGPoint(x: -18, y: 18))
        triangle.close()
        c.collisionBoundingPath = triangle
        let collision = CollisionBehavior(items: [a, b, c])
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: [a, b, c])
        let anchor = AttachmentBehavior(item: b, attachedToAnchor: CGPoint(x: 200, y: 20))
        let snap = SnapBehavior(item: a, snapTo: CGPoint(x: 120, y: 100))
        for behavior in [collision, gravity, anchor, snap] as [DynamicBehavior] { animator.addBehavior(behavior) }
        var added: [BasicDynamicItem] = []
        var snapshot: DynamicsSnapshot?
        var restored = false
        // Changes inside the frame's callbacks (the world is locked): they show from the next frame.
        var frameNumber = 0
        animator.addFrameObserver { _ in
            switch frameNumber {
            case 12: a.name = "renamed a"
            case 18: anchor.anchorPoint = CGPoint(x: 180, y: 30)
            case 26:
                let d = BasicDynamicItem(center: CGPoint(x: 60, y: 40), size: CGSize(width: 20, height: 20))
                added.append(d)
                collision.addItem(d)
                gravity.addItem(d)
            default: break
            }
        }
        let (comparison, new, old, _, _) = Self.compare(animator, frames: 80) { k in
            frameNumber = k
            switch k {
            case 5:
                let left = CGPoint(x: 40, y: 200), right = CGPoint(x: 360, y: 240)
                collision.addBoundary(withIdentifier: "shelf", from: left, to: right)
            case 8:
                let square = CGSize(width: 20, height: 20)
                let first = BasicDynamicItem(center: CGPoint(x: 250, y: 120), size: square)
                let at = CGPoint(x: 270, y: 120)
                let second = BasicDynamicItem(center: at, size: square, collisionBoundsType: .ellipse)
                let group = DynamicItemGroup(items: [first, second])
                collision.addItem(group)
                gravity.addItem(group)
            case 15: snap.snapPoint = CGPoint(x: 300, y: 120)
            case 20:
                b.bounds = CGRect(x: 0, y: 0, width: 44, height: 44)
                animator.updateItem(usingCurrentState: b)
            case 30:
                collision.removeItem(c)
                gravity.removeItem(c)
            case 32: snapshot = animator.snapshot()
            case 34: anchor.anchorPoint = CGPoint(x: 150, y: 40)
            case 36: restored = (try? animator.restore(#require(snapshot))) != nil
            case 40: view.bounds = CGRect(x: 0, y: 0, width: 420, height: 320)
            case 44:
                let insets = CollisionBehavior.Insets(top: 10, left: 10, bottom: 10, right: 10)
                collision.setTranslatesReferenceBoundsIntoBoundary(with: insets)
            case 50: collision.removeBoundary(withIdentifier: "shelf")
            case 55: a.name = nil
            case 60:
                collision.addItem(c)
                gravity.addItem(c)
            default: break
            }
            animator.step()
        }
        #expect(comparison.frames == 80)
        #expect(comparison.asciiMismatches.isEmpty, "ASCII differs at frames \(comparison.asciiMismatches.prefix(5))")
        #expect(comparison.svgMismatches.isEmpty, "SVG differs at frames \(comparison.svgMismatches.prefix(5))")
        #expect(new == old, "the scene file differs:\n\(new)\n---\n\(old)")
        // The changes did reach the file: the rename, the join, the boundary, the moved anchor.
        #expect(new.contains("renamed a") && new.contains("\"boundaries\""))
        #expect(new.split(separator: "\n").filter { $0.contains("\"attachments\"") }.count >= 3)
        #expect(added.count == 1 && restored)
    }

    /// An animator without reference bounds: the picture fits the items, every frame.
    @Test func sameBytesInAnAbstractSpace() {
        let animator = DynamicAnimator()
        var items: [BasicDynamicItem] = []
        for k in 0 ..< 6 {
            let x: Double = 30 * Double(k), y: Double = -20 * Double(k), h: Double = 10 + Double(k)
            let type: DynamicItemCollisionBoundsType = k % 2 == 0 ? .rectangle : .ellipse
            let size = CGSize(width: 16, height: h)
            items.append(BasicDynamicItem(center: CGPoint(x: x, y: y), size: size, collisionBoundsType: type))
        }
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(AttachmentBehavior(item: items[0], attachedTo: items[5]))
        let (comparison, new, old, _, _) = Self.compare(animator, frames: 40) { _ in animator.step() }
        #expect(comparison.frames == 40 && comparison.asciiMismatches.isEmpty && comparison.svgMismatches.isEmpty)
        #expect(new == old)
    }

    // MARK: Built once

    /// The scene is described once and kept while nothing in it changes: plain steps leave the
    /// cache alone, so frames of the pendulum reuse one description; an anchor moved every frame
    /// (the "attachments" scene) rebuilds it every frame, and only then.
    @Test func theSceneIsDescribedOnlyWhenItChanges() throws {
        let pendulum = try #require(UIKitScenes.named("pendulum")).make()
        let renderer = ASCIIRenderer(width: 40, height: 12)
        var stamps: [UInt64] = []
        pendulum.animator.addFrameObserver { report in
            _ = renderer.render(report, of: pendulum.animator)
            stamps.append(pendulum.animator.sceneCache.stamp)
        }
        for k in 0 ..< 60 { pendulum.step(frame: k) }
        let rebuilds = Set(stamps).count - 1
        #expect(stamps.count == 60 && rebuilds == 0, "the pendulum's scene was rebuilt \(rebuilds) times")

        let attachments = try #require(UIKitScenes.named("attachments")).make()
        var moving: [UInt64] = []
        attachments.animator.addFrameObserver { report in
            _ = renderer.render(report, of: attachments.animator)
            _ = TraceScene(attachments.animator)   // a second reader in the same frame: no rebuild
            moving.append(attachments.animator.sceneCache.stamp)
        }
        for k in 0 ..< 30 { attachments.step(frame: k) }
        #expect(Set(moving).count == 30, "one description per frame, not \(Set(moving).count) for 30 frames")
    }

    /// The recorder compares nothing on a frame whose scene did not change: its file gets the
    /// scene once, then only the frames with changes.
    @Test func theRecorderWritesOnlyChanges() throws {
        let pendulum = try #require(UIKitScenes.named("pendulum")).make()
        let writer = CSVFrameWriter()
        writer.record(pendulum.animator)
        for k in 0 ..< 60 { pendulum.step(frame: k) }
        let lines = writer.sceneText.split(separator: "\n")
        // The header, the bounds, the boundaries (if any), two items, the attachments: all at frame 0.
        #expect(lines.dropFirst().allSatisfy { $0.contains("\"frame\":0") }, "\(lines)")
        #expect(writer.text.split(separator: "\r\n").count == 1 + 60 * 2)
    }
}
