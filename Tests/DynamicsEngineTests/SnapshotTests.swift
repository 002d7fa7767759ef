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
        let before = a.stateHash()
        var json = String(decoding: try JSONEncoder().encode(a.snapshot()), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"awakeBodies\":[", with: "\"awakeBodies\":[99999,")
        let broken = try JSONDecoder().decode(WorldSnapshot.self, from: Data(json.utf8))
        #expect(throws: WorldSnapshotError.self) { try a.restore(broken) }
        #expect(a.stateHash() == before)
        run(a, steps: 5)
        #expect(a.validate().isEmpty)
    }
}
