import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// A scene with every kind of state a snapshot must carry: collisions reported to a delegate,
/// boundaries, an attachment chain, a snap, an instantaneous push re-armed from an action, a
/// continuous push, a noise field whose pattern moves (animationSpeed > 0), item properties, a
/// group, a velocity waiting for its item, and items that fall asleep on the floor.
final class BusyScene {
    let animator: DynamicAnimator
    let recorder = CollisionRecorder()
    let pauses = AnimatorRecorder()
    var csv = CSVFrameWriter()
    var items: [BasicDynamicItem] = []
    let tap = PushBehavior(items: [], mode: .instantaneous)
    let noise = FieldBehavior.noiseField(smoothness: 0.3, animationSpeed: 2)

    init(validating: Bool = true) {
        animator = validating ? validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 600))
                              : DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 600))
        func item(_ name: String, _ x: CGFloat, _ y: CGFloat, _ w: CGFloat = 30, _ h: CGFloat = 30,
                  _ type: DynamicItemCollisionBoundsType = .rectangle) -> BasicDynamicItem {
            let i = BasicDynamicItem(center: CGPoint(x: x, y: y), size: CGSize(width: w, height: h), collisionBoundsType: type, name: name)
            items.append(i)
            return i
        }
        var fallers: [BasicDynamicItem] = []
        for k in 0..<6 {
            let x: CGFloat = 60 + CGFloat(k) * 50
            let y: CGFloat = 80 + CGFloat(k % 3) * 40
            let type: DynamicItemCollisionBoundsType = k % 2 == 0 ? .rectangle : .ellipse
            fallers.append(item("f\(k)", x, y, 30, 24, type))
        }
        let sleeperA = item("sleepA", 40, 585)
        let sleeperB = item("sleepB", 40, 555)
        let bob = item("bob", 300, 200, 20, 20, .ellipse)
        let bob2 = item("bob2", 340, 200, 20, 20)
        let snapped = item("snapped", 200, 300, 40, 20)
        let drifter = item("drifter", 120, 400, 16, 16, .ellipse)
        let left = item("gL", 250, 420, 20, 20), right = item("gR", 275, 420, 30, 10)
        let group = DynamicItemGroup(items: [left, right])

        let bodies: [any DynamicItem] = fallers + [sleeperA, sleeperB, bob, bob2, drifter, group]
        let gravity = GravityBehavior(items: bodies)
        let collision = CollisionBehavior(items: bodies + [snapped])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 300), to: CGPoint(x: 150, y: 340))
        collision.collisionDelegate = recorder
        animator.delegate = pauses
        animator.addBehavior(gravity)
        animator.addBehavior(collision)

        let material = DynamicItemBehavior(items: fallers + [drifter])
        material.elasticity = 0.4
        material.friction = 0.3
        material.charge = 1
        material.addLinearVelocity(CGPoint(x: 40, y: -30), for: fallers[0])
        animator.addBehavior(material)
        let heavy = DynamicItemBehavior(items: [group])
        heavy.density = 3
        heavy.angularResistance = 0.5
        animator.addBehavior(heavy)

        let rope = AttachmentBehavior(item: bob, attachedToAnchor: CGPoint(x: 300, y: 120))
        let pin = AttachmentBehavior.pinAttachment(with: bob, attachedTo: bob2, attachmentAnchor: CGPoint(x: 320, y: 200))
        pin.frictionTorque = 0.01
        let pendulum = DynamicBehavior()
        pendulum.addChildBehavior(rope)
        pendulum.addChildBehavior(pin)
        animator.addBehavior(pendulum)

        let snap = SnapBehavior(item: snapped, snapTo: CGPoint(x: 260, y: 330))
        snap.damping = 0.3
        animator.addBehavior(snap)

        tap.addItem(fallers[1])
        tap.addItem(drifter)
        tap.setAngle(-.pi / 3, magnitude: 0.02)
        tap.setTargetOffsetFromCenter(CGPoint(x: 5, y: 0), for: drifter)
        let animator = self.animator
        tap.action = { [unowned tap, unowned animator] in
            if animator.frameIndex % 40 == 0 { tap.active = true }
        }
        animator.addBehavior(tap)
        let wind = PushBehavior(items: [fallers[2]], mode: .continuous)
        wind.pushDirection = CGVector(dx: 0.01, dy: 0)
        animator.addBehavior(wind)

        noise.strength = 0.3
        noise.addItem(drifter)
        noise.addItem(fallers[3])
        animator.addBehavior(noise)

        let waiting = DynamicItemBehavior()
        waiting.addLinearVelocity(CGPoint(x: 1, y: 2), for: sleeperA)   // not in this behaviour: waits
        animator.addBehavior(waiting)

        animator.addFrameObserver { [unowned self] report in self.csv.write(report) }
    }

    /// Runs `frames` frames, alternating single steps and uneven `advance(by:)` calls so the
    /// accumulator carries remainders; returns the CSV and the delegate events of those frames.
    func run(frames: Int) -> (csv: String, events: [String]) {
        csv = CSVFrameWriter()
        recorder.events = []
        pauses.events = []
        for k in 0..<frames {
            if k % 3 == 0 { animator.step() } else { animator.advance(by: 0.0213) }
        }
        return (csv.text, recorder.events + pauses.events)
    }
}

@Suite("Animator snapshots")
struct AnimatorSnapshotTests {
    @Test func restoredAnimatorContinuesBitForBit() throws {
        let scene = BusyScene()
        // Long enough for the fallers to have landed beside the sleepers (their island then sleeps
        // again); the moment depends on how the fallers bounced, so it is not cut close.
        _ = scene.run(frames: 240)
        #expect(scene.animator.isRunning)
        #expect(scene.animator.statistics.restingItems >= 2)   // the sleepers sleep
        #expect(scene.animator.world.contactCount > 0)
        let snapshot = scene.animator.snapshot()
        let original = scene.run(frames: 300)
        #expect(original.events.contains { $0.hasPrefix("began") })
        #expect(original.events.contains { $0.hasPrefix("ended") })
        #expect(original.csv.contains("sleepA") && original.csv.contains(",true\r\n"))   // someone sleeps

        // Into the same animator, 300 frames later.
        try scene.animator.restore(snapshot)
        #expect(scene.animator.elapsedTime == snapshot.elapsedTime)
        #expect(scene.animator.snapshot() == snapshot)
        let again = scene.run(frames: 300)
        #expect(again.csv == original.csv)
        #expect(again.events == original.events)

        // Into a new animator built the same way, through JSON.
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(DynamicsSnapshot.self, from: data)
        let twin = BusyScene()
        try twin.animator.restore(decoded)
        let replay = twin.run(frames: 300)
        #expect(replay.csv == original.csv)
        #expect(replay.events.filter { $0 != "resume" } == original.events.filter { $0 != "resume" })
        #expect(twin.animator.world.validationErrors.isEmpty)
    }

    @Test func restoreWritesTheSnapshotPosesToTheItems() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 60)
        let snapshot = scene.animator.snapshot()
        let poses = scene.items.map { ($0.center, $0.transform) }
        _ = scene.run(frames: 60)
        #expect(scene.items.map(\.center) != poses.map(\.0))
        try scene.animator.restore(snapshot)
        #expect(scene.items.map(\.center) == poses.map(\.0))
        #expect(scene.items.map(\.transform) == poses.map(\.1))
    }

    @Test func jsonRoundTripKeepsEveryBit() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 90)
        let snapshot = scene.animator.snapshot()
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(DynamicsSnapshot.self, from: data)
        #expect(decoded == snapshot)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys
        #expect(try sorted.encode(decoded) == sorted.encode(snapshot))
        #expect(decoded.frameIndex == scene.animator.frameIndex)
        #expect(decoded.itemCount == 13)
        // Property lists too.
        let plist = try PropertyListEncoder().encode(snapshot)
        #expect(try PropertyListDecoder().decode(DynamicsSnapshot.self, from: plist) == snapshot)
    }

    @Test func snapshotCarriesBehaviourSettings() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 30)
        let snapshot = scene.animator.snapshot()
        let noiseTime = scene.noise.noiseTime
        #expect(noiseTime > 0)
        scene.noise.strength = 5
        scene.tap.magnitude = 3
        _ = scene.run(frames: 30)
        try scene.animator.restore(snapshot)
        #expect(scene.noise.strength == 0.3)
        #expect(scene.noise.noiseTime == noiseTime)
        #expect(abs(scene.tap.magnitude - 0.02) < 1e-15)
    }

    @Test func snapshotOfAnotherConfigurationIsRejected() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 20)
        let snapshot = scene.animator.snapshot()

        // An animator with one more behaviour.
        let other = BusyScene()
        other.animator.addBehavior(GravityBehavior(items: [other.items[0]]))
        _ = other.run(frames: 5)
        let before = other.animator.snapshot()
        let diagnostics = other.animator.diagnostics.count
        #expect {
            try other.animator.restore(snapshot)
        } throws: { error in
            guard case .configurationMismatch(let why)? = error as? DynamicsSnapshotError else { return false }
            return why.contains("GravityBehavior")
        }
        #expect(other.animator.snapshot() == before)
        #expect(other.animator.diagnostics.count == diagnostics + 1)
        if case .snapshotRefused(.configurationMismatch(let why))? = other.animator.diagnostics.last?.kind {
            #expect(why.contains("GravityBehavior"))
        } else {
            Issue.record("expected a refused snapshot, got \(String(describing: other.animator.diagnostics.last))")
        }

        // The same animator after an item left a behaviour.
        scene.noise.removeItem(scene.items[3])
        #expect(throws: DynamicsSnapshotError.self) { try scene.animator.restore(snapshot) }
        scene.noise.addItem(scene.items[3])
        try scene.animator.restore(snapshot)

        // An animator with nothing in it.
        let empty = DynamicAnimator()
        #expect(throws: DynamicsSnapshotError.self) { try empty.restore(snapshot) }
        #expect(empty.elapsedTime == 0)
    }

    @Test func corruptedArchivesAreRejected() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 40)
        let snapshot = scene.animator.snapshot()
        let data = try JSONEncoder().encode(snapshot)
        let text = String(decoding: data, as: UTF8.self)

        // Truncated.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DynamicsSnapshot.self, from: data.prefix(data.count / 2)) }
        // One number changed.
        let frame = "\"frameIndex\":\(snapshot.frameIndex)"
        #expect(text.contains(frame))
        let altered = text.replacingOccurrences(of: frame, with: "\"frameIndex\":\(snapshot.frameIndex + 1)")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DynamicsSnapshot.self, from: Data(altered.utf8)) }
        // Not a snapshot at all.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DynamicsSnapshot.self, from: Data("{\"world\":1}".utf8)) }
    }

    @Test func inconsistentSnapshotIsRejectedAndAnimatorKept() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 40)
        let good = scene.animator.snapshot()
        _ = scene.run(frames: 10)
        let before = scene.animator.snapshot()

        func tampered(_ change: (inout DynamicsSnapshot) -> Void) -> DynamicsSnapshot {
            var s = good
            change(&s)
            s.checksum = s.computedChecksum
            return s
        }
        let broken = [
            tampered { $0.animatorState.removeLast() },
            tampered { $0.animatorState.append(0) },
            tampered { $0.animatorState[0] = Double.nan.bitPattern },                 // step duration
            tampered { $0.animatorState[1] = Double(999).bitPattern },                 // substeps
            tampered { $0.behaviorStates[0] = [] },
            tampered { $0.behaviorStates.removeLast() },
            tampered { $0.formatVersion = 99 },
            tampered { $0.world = World().snapshot() },
        ]
        for snapshot in broken {
            #expect(throws: DynamicsSnapshotError.self) { try scene.animator.restore(snapshot) }
            #expect(scene.animator.snapshot() == before)
        }
        var unchecked = good
        unchecked.elapsedTime += 1
        #expect(throws: DynamicsSnapshotError.self) { try scene.animator.restore(unchecked) }
        try scene.animator.restore(good)
        #expect(scene.animator.snapshot() == good)
    }

    /// Random mutations of every part of a snapshot, with the checksum made to match so that the
    /// restore itself must find the damage: it throws and keeps the animator, or succeeds and the
    /// animator steps on. Never a crash.
    @Test func mutatedSnapshotsNeverCrashAndKeepTheAnimator() throws {
        let scene = BusyScene(validating: false)
        _ = scene.run(frames: 60)
        let good = scene.animator.snapshot()
        var seed: UInt64 = 7
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 11 }
        var refused = 0
        for round in 0..<300 {
            var s = good
            switch round % 4 {
            case 0, 1:   // the world's bytes
                var bytes = s.world.bytes
                for _ in 0..<(1 + Int(next() % 3)) {
                    let at = 8 + Int(next() % UInt64(bytes.count - 8))
                    if next() % 5 == 0 { bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(next() % 8))) }
                    else { bytes[at] = UInt8(truncatingIfNeeded: next()) }
                }
                s.world = WorldSnapshot(bytes: bytes)
            case 2:      // the animator's state
                let at = Int(next() % UInt64(s.animatorState.count))
                s.animatorState[at] = next() % 2 == 0 ? next() : s.animatorState[at] ^ (1 << (next() % 64))
            default:     // a behaviour's state
                let k = Int(next() % UInt64(s.behaviorStates.count))
                guard !s.behaviorStates[k].isEmpty else { continue }
                let at = Int(next() % UInt64(s.behaviorStates[k].count))
                s.behaviorStates[k][at] = next() % 2 == 0 ? Double(Int(next() % 40) - 5).bitPattern : next()
            }
            s.checksum = s.computedChecksum
            let before = scene.animator.snapshot()
            do {
                try scene.animator.restore(s)
                for _ in 0..<3 { scene.animator.step() }
            } catch is DynamicsSnapshotError {
                refused += 1
                #expect(scene.animator.snapshot() == before, "round \(round): a refused snapshot changed the animator")
            }
            try scene.animator.restore(good)
        }
        #expect(refused > 100)
    }

    @Test func restoringDuringAStepIsRefused() throws {
        let scene = BusyScene()
        _ = scene.run(frames: 5)
        let snapshot = scene.animator.snapshot()
        var error: (any Error)?
        let probe = DynamicBehavior()
        probe.action = { [unowned animator = scene.animator] in
            do { try animator.restore(snapshot) } catch let e { error = e }
        }
        scene.animator.addBehavior(probe)
        scene.animator.step()
        #expect(error as? DynamicsSnapshotError == .restoringDuringStep)
    }

    @Test func snapshotTakenInAFrameObserverRestoresToThatFrame() throws {
        let scene = BusyScene(validating: false)
        var taken: DynamicsSnapshot?
        let token = scene.animator.addFrameObserver { [unowned animator = scene.animator] report in
            if report.index == 70 { taken = animator.snapshot() }
        }
        _ = scene.run(frames: 71)
        scene.animator.removeFrameObserver(token)
        let after = scene.run(frames: 100)
        let snapshot = try #require(taken)
        try scene.animator.restore(snapshot)
        #expect(scene.run(frames: 100).csv == after.csv)
    }

    @Test func pausedAnimatorRestoresItsPauseAndTellsTheDelegate() throws {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 200, height: 200))
        let box = square(20, at: CGPoint(x: 100, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        animator.advance(by: 0.05)
        let moving = animator.snapshot()
        animator.advance(by: 5)
        #expect(!animator.isRunning)
        let resting = animator.snapshot()
        recorder.events = []
        try animator.restore(moving)
        #expect(animator.isRunning)
        #expect(recorder.events == ["resume"])
        try animator.restore(resting)
        #expect(!animator.isRunning)
        #expect(recorder.events == ["resume", "pause"])
    }
}
