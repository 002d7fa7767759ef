import Dynamics
import Foundation
import Testing

// Golden snapshots: archives saved by format version 1 (Golden/<name>.snapshot.json) of three
// scenes mid-motion, each with the hash of continuing the live animator it was taken from
// (Golden/<name>.expected.json). Restoring an archive into a freshly built scene and continuing
// must give that hash bit for bit, whatever the engine's in-memory layout has become since.
//
// - The scene builders below are frozen: a snapshot names items and behaviours by their place,
//   so changing a builder breaks its golden. Add a new scene instead.
// - A legitimate change of the physics changes every continuation: then update `hash` in the
//   .expected.json files (run the suite, copy the hash the failure prints) and say why in `note`
//   and in the commit. Never regenerate the .snapshot.json files for that: they are what an app
//   saved with version 1, and must keep decoding.
// - To add a golden of a new format version: DYNAMICS_WRITE_GOLDEN_SNAPSHOTS=1 swift test
//   --filter GoldenSnapshot writes the files of every scene whose files are missing.

/// One golden scene: how to build it, how many steps before the snapshot and after it.
struct GoldenScene: CustomTestStringConvertible, Sendable {
    let name: String
    let stepsBefore: Int
    let stepsAfter: Int
    let build: @Sendable () -> (DynamicAnimator, [BasicDynamicItem])
    var testDescription: String { name }

    /// A pyramid of 36 boxes on the floor, settling: resting contacts with warm-start impulses.
    static let pyramid = GoldenScene(name: "pyramid", stepsBefore: 45, stepsAfter: 120) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 600, height: 400))
        var items: [BasicDynamicItem] = []
        for row in 0..<8 {
            for k in 0..<(8 - row) {
                let x = 300 + (CGFloat(k) - CGFloat(7 - row) / 2) * 31
                items.append(BasicDynamicItem(center: CGPoint(x: x, y: 384 - 31 * CGFloat(row)),
                                              size: CGSize(width: 30, height: 30), name: "box\(row).\(k)"))
            }
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior(items: items)
        material.friction = 0.6
        for b in [collision, GravityBehavior(items: items), material] as [DynamicBehavior] { animator.addBehavior(b) }
        return (animator, items)
    }

    /// A chain of 8 links pinned to each other and to an anchor, swinging.
    static let chain = GoldenScene(name: "chain", stepsBefore: 40, stepsAfter: 120) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 600, height: 400))
        var items: [BasicDynamicItem] = []
        for k in 0..<8 {
            items.append(BasicDynamicItem(center: CGPoint(x: 120 + 30 * CGFloat(k), y: 60),
                                          size: CGSize(width: 26, height: 8), name: "link\(k)"))
        }
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(AttachmentBehavior(item: items[0], offsetFromCenter: CGPoint(x: -13, y: 0),
                                                attachedToAnchor: CGPoint(x: 105, y: 60)))
        for k in 1..<items.count {
            animator.addBehavior(AttachmentBehavior.pinAttachment(with: items[k - 1], attachedTo: items[k],
                                                                  attachmentAnchor: CGPoint(x: 105 + 30 * CGFloat(k), y: 60)))
        }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        return (animator, items)
    }

    /// UIKit behaviours together: a springy attachment, a snap, continuous and instantaneous
    /// pushes, a radial gravity field and a moving noise field, collisions with a boundary.
    static let behaviours = GoldenScene(name: "behaviours", stepsBefore: 50, stepsAfter: 150) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 500, height: 500))
        func item(_ name: String, _ x: CGFloat, _ y: CGFloat, _ type: DynamicItemCollisionBoundsType = .rectangle) -> BasicDynamicItem {
            BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: 30, height: 24), collisionBoundsType: type, name: name)
        }
        let swing = item("swing", 100, 100), snapped = item("snapped", 250, 250, .ellipse)
        let pushed = item("pushed", 400, 100), tapped = item("tapped", 400, 400, .ellipse)
        let drifter = item("drifter", 150, 350), orbiter = item("orbiter", 300, 150, .ellipse)
        let items = [swing, snapped, pushed, tapped, drifter, orbiter]
        let spring = AttachmentBehavior(item: swing, attachedToAnchor: CGPoint(x: 100, y: 40))
        spring.frequency = 2
        spring.damping = 0.2
        animator.addBehavior(spring)
        let snap = SnapBehavior(item: snapped, snapTo: CGPoint(x: 320, y: 260))
        snap.damping = 0.4
        animator.addBehavior(snap)
        let wind = PushBehavior(items: [pushed], mode: .continuous)
        wind.pushDirection = CGVector(dx: -0.3, dy: 0.2)
        animator.addBehavior(wind)
        let tap = PushBehavior(items: [tapped], mode: .instantaneous)
        tap.setAngle(-.pi / 3, magnitude: 0.5)
        animator.addBehavior(tap)
        let sun = FieldBehavior.radialGravityField(position: CGPoint(x: 250, y: 250))
        sun.strength = 2
        sun.minimumRadius = 20
        sun.addItem(orbiter)
        animator.addBehavior(sun)
        let noise = FieldBehavior.noiseField(smoothness: 0.4, animationSpeed: 1.5)
        noise.strength = 0.5
        noise.addItem(drifter)
        animator.addBehavior(noise)
        let gravity = GravityBehavior(items: [swing, drifter])
        animator.addBehavior(gravity)
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "ledge" as NSString, from: CGPoint(x: 0, y: 420), to: CGPoint(x: 220, y: 460))
        animator.addBehavior(collision)
        let material = DynamicItemBehavior(items: [drifter, tapped])
        material.elasticity = 0.5
        material.friction = 0.2
        animator.addBehavior(material)
        return (animator, items)
    }

    static let all = [pyramid, chain, behaviours]
}

/// What a golden's continuation must hash to, stored next to the golden.
struct GoldenExpectation: Codable, Equatable {
    /// The snapshot's format version (the file name's golden was written by it).
    var formatVersion: Int
    /// Steps run from the snapshot.
    var steps: Int
    /// FNV-1a (hex) over every step's item centres, rotations and elapsed time.
    var hash: String
    /// Why the hash is what it is (and, when it was updated, why it changed).
    var note: String
}

/// FNV-1a over the bits of every item's centre and rotation (transform a, b) and the animator's
/// elapsed time, after each of `steps` steps.
func continuationHash(_ animator: DynamicAnimator, _ items: [BasicDynamicItem], steps: Int) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    func add(_ v: Double) {
        var x = v.bitPattern
        for _ in 0..<8 { h = (h ^ (x & 0xFF)) &* 0x0000_0100_0000_01B3; x >>= 8 }
    }
    for _ in 0..<steps {
        animator.step()
        add(animator.elapsedTime)
        for item in items {
            add(Double(item.center.x)); add(Double(item.center.y))
            add(Double(item.transform.a)); add(Double(item.transform.b))
        }
    }
    return String(h, radix: 16)
}

@Suite("Golden snapshots")
struct GoldenSnapshotTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func snapshotURL(_ scene: GoldenScene) -> URL { directory.appendingPathComponent("\(scene.name).snapshot.json") }
    static func expectationURL(_ scene: GoldenScene) -> URL { directory.appendingPathComponent("\(scene.name).expected.json") }

    /// A version-1 archive decodes and continues bit for bit as the live animator it was saved from.
    @Test(arguments: GoldenScene.all)
    func goldenContinuesBitForBit(_ scene: GoldenScene) throws {
        let data = try Data(contentsOf: Self.snapshotURL(scene))
        let expected = try JSONDecoder().decode(GoldenExpectation.self, from: Data(contentsOf: Self.expectationURL(scene)))
        let snapshot = try JSONDecoder().decode(DynamicsSnapshot.self, from: data)
        #expect(snapshot.formatVersion == expected.formatVersion)
        let (animator, items) = scene.build()
        try animator.restore(snapshot)
        #expect(animator.elapsedTime == snapshot.elapsedTime)
        let hash = continuationHash(animator, items, steps: expected.steps)
        #expect(hash == expected.hash, "\(scene.name): the golden's continuation hashes to \(hash), expected \(expected.hash). If the physics changed on purpose, update .expected.json's hash and note; if not, the snapshot format or restore broke.")
    }

    /// Writes the goldens that are missing (DYNAMICS_WRITE_GOLDEN_SNAPSHOTS=1), checking first that
    /// the archive, restored into a fresh scene, continues exactly as the live animator does.
    @Test(arguments: GoldenScene.all)
    func writeMissingGolden(_ scene: GoldenScene) throws {
        guard ProcessInfo.processInfo.environment["DYNAMICS_WRITE_GOLDEN_SNAPSHOTS"] == "1",
              !FileManager.default.fileExists(atPath: Self.snapshotURL(scene).path) else { return }
        let (live, liveItems) = scene.build()
        for _ in 0..<scene.stepsBefore { live.step() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(live.snapshot())
        let liveHash = continuationHash(live, liveItems, steps: scene.stepsAfter)
        let (copy, copyItems) = scene.build()
        try copy.restore(JSONDecoder().decode(DynamicsSnapshot.self, from: data))
        let copyHash = continuationHash(copy, copyItems, steps: scene.stepsAfter)
        try #require(copyHash == liveHash)
        try data.write(to: Self.snapshotURL(scene))
        let expectation = GoldenExpectation(formatVersion: DynamicsSnapshot.formatVersion, steps: scene.stepsAfter, hash: liveHash,
                                            note: "Saved after \(scene.stepsBefore) steps; the hash of the live animator's next \(scene.stepsAfter) steps when the golden was written.")
        let pretty = JSONEncoder()
        pretty.outputFormatting = [.sortedKeys, .prettyPrinted]
        try pretty.encode(expectation).write(to: Self.expectationURL(scene))
    }

    /// An archive of a newer format version is refused with a clear error before the rest of it is
    /// read, and the animator keeps its state.
    @Test func newerFormatVersionIsRefused() throws {
        let scene = GoldenScene.pyramid
        var text = String(decoding: try Data(contentsOf: Self.snapshotURL(scene)), as: UTF8.self)
        #expect(text.contains("\"formatVersion\":1"))
        text = text.replacingOccurrences(of: "\"formatVersion\":1", with: "\"formatVersion\":\(DynamicsSnapshot.formatVersion + 1)")
        #expect {
            try JSONDecoder().decode(DynamicsSnapshot.self, from: Data(text.utf8))
        } throws: { error in
            guard case .unsupportedFormatVersion(let v)? = error as? DynamicsSnapshotError else { return false }
            return v == DynamicsSnapshot.formatVersion + 1 && "\(error)".contains("Update swift-dynamics")
        }
    }

    /// Truncated or altered archives throw, and restoring nothing leaves the animator as it was.
    @Test func corruptedGoldensAreRefusedAndTheAnimatorKept() throws {
        let scene = GoldenScene.behaviours
        let data = try Data(contentsOf: Self.snapshotURL(scene))
        let (animator, _) = scene.build()
        for _ in 0..<10 { animator.step() }
        let before = animator.snapshot()
        var seed = UInt64(42)
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 17 }
        var decoded = 0
        for round in 0..<300 {
            var bytes = [UInt8](data)
            switch round % 3 {
            case 0: bytes = Array(bytes.prefix(Int(next() % UInt64(bytes.count))))          // truncated
            case 1: bytes[Int(next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: next())  // one byte changed
            default:                                                                           // a digit changed
                let digits = bytes.indices.filter { bytes[$0] >= 0x30 && bytes[$0] <= 0x39 }
                let at = digits[Int(next() % UInt64(digits.count))]
                bytes[at] = 0x30 + UInt8((Int(bytes[at]) - 0x30 + 1 + Int(next() % 9)) % 10)
            }
            guard let snapshot = try? JSONDecoder().decode(DynamicsSnapshot.self, from: Data(bytes)) else { continue }
            decoded += 1   // a change the JSON reader ignores (e.g. whitespace) or the checksum cannot see
            do { try animator.restore(snapshot) } catch { #expect(animator.snapshot() == before) }
            try animator.restore(before)
        }
        #expect(decoded < 30)
        #expect(animator.snapshot() == before)
    }
}
