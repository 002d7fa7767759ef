import DynamicsEngine
import Foundation
import Testing

@Suite struct SnapshotTests {
    /// A scene with every kind of state a step depends on: resting contacts with warm-start
    /// impulses, joints with accumulated impulses, bodies asleep and awake, a kinematic body.
    func scene() -> World {
        let w = makeWorld(sleep: true, validate: false)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(2000, 50))
        for i in 0..<6 {
            for j in 0..<(6 - i) {
                addBox(w, at: Vec2(Float(j) * 42 - 100 + Float(i) * 21, -20 - Float(i) * 40), half: Vec2(20, 20))
            }
        }
        var prev = addCircle(w, .static, at: Vec2(300, -400), radius: 5)
        for k in 1...5 {
            let c = addCircle(w, at: Vec2(300 + Float(k) * 30, -400), radius: 8)
            var jd = JointDef(kind: .revolute)
            jd.bodyA = prev; jd.bodyB = c
            jd.localAnchorA = k == 1 ? .zero : Vec2(15, 0); jd.localAnchorB = Vec2(-15, 0)
            w.createJoint(jd)
            prev = c
        }
        var kd = BodyDef()
        kd.type = .kinematic
        kd.position = Vec2(-600, -100)
        kd.angularVelocity = 1
        let k = w.createBody(kd)
        w.createShape(on: k, ShapeDef(), .box(halfWidth: 80, halfHeight: 10, center: .zero, angle: 0))
        return w
    }

    @Test func restoredWorldContinuesBitForBit() throws {
        let a = scene()
        run(a, steps: 90)
        let snap = a.snapshot()
        var hashesA: [UInt64] = []
        for _ in 0..<120 { a.step(dt: 1.0 / 60, substeps: 4); hashesA.append(a.stateHash()) }

        let b = scene()   // same definition, different history
        try b.restore(snap)
        var hashesB: [UInt64] = []
        for _ in 0..<120 { b.step(dt: 1.0 / 60, substeps: 4); hashesB.append(b.stateHash()) }
        #expect(hashesA == hashesB)
        #expect(b.validate().isEmpty)
    }

    @Test func jsonRoundTripKeepsEveryBit() throws {
        let a = scene()
        run(a, steps: 45)
        let snap = a.snapshot()
        let data = try JSONEncoder().encode(snap)
        let decoded = try JSONDecoder().decode(WorldSnapshot.self, from: data)
        #expect(decoded == snap)
        let b = scene()
        try b.restore(decoded)
        run(a, steps: 60)
        run(b, steps: 60)
        #expect(a.stateHash() == b.stateHash())
    }

    @Test func corruptSnapshotIsRejectedAndWorldKept() throws {
        let a = scene()
        run(a, steps: 10)
        let before = a.snapshot()
        let bytes = before.bytes
        let broken: [[UInt8]] = [
            [],
            Array(bytes.prefix(8)),
            Array(bytes.dropLast()),                 // truncated
            bytes + [0],                             // trailing byte
            Array("bplist00".utf8) + bytes,          // not this format
        ]
        for b in broken {
            #expect(throws: WorldSnapshotError.self) { try a.restore(WorldSnapshot(bytes: b)) }
            #expect(a.snapshot() == before)
        }
        run(a, steps: 5)
        #expect(a.validate().isEmpty)
    }

    /// A snapshot of a later format version is refused before anything of it is read, both when
    /// decoded and when restored.
    @Test func futureVersionIsRefused() throws {
        let a = scene()
        run(a, steps: 10)
        let before = a.snapshot()
        var bytes = before.bytes
        bytes[4] = UInt8(SnapshotFormat.current + 1)
        let future = WorldSnapshot(bytes: bytes)
        #expect(future.formatVersion == SnapshotFormat.current + 1)
        #expect(throws: WorldSnapshotError.self) { try a.restore(future) }
        #expect(a.snapshot() == before)
        let json = try JSONEncoder().encode(future)
        #expect {
            try JSONDecoder().decode(WorldSnapshot.self, from: json)
        } throws: { error in
            "\(error)".contains("newer than this build")
        }
    }

    /// Random bytes changed: the restore throws and leaves the world as it was, or succeeds and the
    /// world steps on without trapping. Never a crash.
    @Test func mutatedSnapshotsNeverCrash() throws {
        let a = scene()
        run(a, steps: 60)
        let good = a.snapshot()
        var rng = SplitMix64(seed: 17)
        var refused = 0, accepted = 0
        for round in 0..<400 {
            var bytes = good.bytes
            let edits = 1 + Int(rng.next() % 4)
            for _ in 0..<edits {
                let at = 8 + Int(rng.next() % UInt64(bytes.count - 8))
                switch rng.next() % 4 {
                case 0: bytes[at] = UInt8(truncatingIfNeeded: rng.next())
                case 1: bytes[at] ^= UInt8(1) << UInt8(rng.next() % 8)
                case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 16)))
                default: bytes[at] = 0xFF
                }
                if bytes.count <= 8 { break }
            }
            let w = scene()
            run(w, steps: 5)
            let before = w.snapshot()
            do {
                try w.restore(WorldSnapshot(bytes: bytes))
                accepted += 1
                if w.validate().isEmpty { run(w, steps: 3) }
            } catch is WorldSnapshotError {
                refused += 1
                #expect(w.snapshot() == before, "round \(round): a refused snapshot changed the world")
            }
        }
        #expect(refused > 100)
        print("world snapshot fuzz: \(refused) refused, \(accepted) accepted of 400 mutations")
    }

    /// Every stored property of the engine's structs is either saved by the format or listed as
    /// not saved with a reason: a field added to `Body`, `Contact`, `Joint` … without a decision
    /// about snapshots fails here, with a message that says where to add it.
    @Test func everyStoredPropertyIsCovered() {
        let problems = SnapshotFormat.coverageProblems()
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// Free slots keep their generations and the free list its order, so the next objects created
    /// get the same ids in a restored world.
    @Test func freeSlotsAndGenerationsSurvive() throws {
        let a = scene()
        var ids: [BodyID] = []
        for k in 0..<5 { ids.append(addBox(a, at: Vec2(Float(k) * 100, -900), half: Vec2(5, 5))) }
        a.destroyBody(ids[3]); a.destroyBody(ids[1])
        let again = addBox(a, at: .zero, half: Vec2(5, 5))   // reuses slot 1, generation 1
        a.destroyBody(again)
        run(a, steps: 3)
        let snap = a.snapshot()
        let b = scene()
        try b.restore(snap)
        let fromA = (addBox(a, at: Vec2(0, -500), half: Vec2(5, 5)), addBox(a, at: Vec2(50, -500), half: Vec2(5, 5)))
        let fromB = (addBox(b, at: Vec2(0, -500), half: Vec2(5, 5)), addBox(b, at: Vec2(50, -500), half: Vec2(5, 5)))
        #expect(fromA.0 == fromB.0 && fromA.0.generation == fromB.0.generation)
        #expect(fromA.1 == fromB.1 && fromA.1.generation == fromB.1.generation)
        #expect(fromA.0.generation == 2)
        run(a, steps: 30); run(b, steps: 30)
        #expect(a.stateHash() == b.stateHash())
        #expect(a.snapshot() == b.snapshot())
    }
}
