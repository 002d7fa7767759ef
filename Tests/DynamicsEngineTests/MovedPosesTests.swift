import DynamicsEngine
import Testing

/// The moved bodies a step records as it finalises them (`World.recordsMovedBodies`) are the ones
/// read from the bodies afterwards, bit for bit: through continuous collision, which moves a fast
/// body back after it was finalised, through sleep, and after a body is moved, destroyed or
/// created by hand between steps.
@Suite struct MovedPosesTests {
    static func collect(_ w: World) -> [MovedBody] {
        var out: [MovedBody] = []
        w.collectMovedBodies(into: &out)
        return out
    }

    /// The moved bodies read from the bodies themselves: with recording switched off there is no
    /// record to copy (it is switched on again for the next step).
    static func read(_ w: World) -> [MovedBody] {
        w.recordsMovedBodies = false
        defer { w.recordsMovedBodies = true }
        return collect(w)
    }

    static func bits(_ list: [MovedBody]) -> [[UInt64]] {
        list.map { m in
            [UInt64(bitPattern: Int64(m.userData)),
             UInt64(m.transform.p.x.bitPattern), UInt64(m.transform.p.y.bitPattern),
             UInt64(m.transform.q.c.bitPattern), UInt64(m.transform.q.s.bitPattern)]
        }
    }

    /// A pyramid of 20 pt boxes on the ground that comes to rest and sleeps, and a thin wall at
    /// x = 599 that the shots hit.
    static func scene(threads: Int) -> (World, [BodyID]) {
        var d = WorldDef()
        d.gravity = Vec2(0, 1000)
        d.workerCount = threads
        let w = World(def: d)
        w.recordsMovedBodies = true
        addBox(w, .static, at: Vec2(0, 110), half: Vec2(2000, 10))
        addBox(w, .static, at: Vec2(600, 0), half: Vec2(1, 400))
        var boxes: [BodyID] = []
        for row in 0..<6 {
            for col in 0..<(8 - row) {
                var bd = BodyDef()
                bd.position = Vec2(Float(col) * 21 + Float(row) * 10.5 - 80, 90 - Float(row) * 20.5)
                bd.userData = 100 * row + col + 1
                let b = w.createBody(bd)
                w.createShape(on: b, ShapeDef(), .box(halfWidth: 10, halfHeight: 10, center: .zero, angle: 0))
                boxes.append(b)
            }
        }
        return (w, boxes)
    }

    /// A 4 pt box at 20 000 pt/s toward the wall: a step takes it 333 pt, from x = 300 to past the
    /// wall, unless continuous collision stops it.
    static func fire(_ w: World, _ k: Int) -> BodyID {
        var bd = BodyDef()
        bd.position = Vec2(300, -200 + Float(k % 5) * 30)
        bd.linearVelocity = Vec2(20_000, 0)
        bd.userData = 10_000 + k
        let b = w.createBody(bd)
        w.createShape(on: b, ShapeDef(), .box(halfWidth: 2, halfHeight: 2, center: .zero, angle: 0))
        return b
    }

    @Test(arguments: [1, 2])
    func theRecordIsWhatTheBodiesSay(threads: Int) {
        let (w, _) = Self.scene(threads: threads)
        var stoppedAtTheWall = 0, fewest = Int.max
        for step in 0..<300 {
            let shot: BodyID? = step % 40 == 5 ? Self.fire(w, step) : nil
            w.step(dt: 1.0 / 60, substeps: 4)
            let recorded = Self.collect(w)
            #expect(Self.bits(recorded) == Self.bits(Self.read(w)), "step \(step)")
            if let shot, w.position(shot).x > 580, w.position(shot).x < 599 { stoppedAtTheWall += 1 }
            fewest = min(fewest, recorded.count)
        }
        // the sweeps moved the shots back after they were finalised, and the pile fell asleep
        #expect(stoppedAtTheWall >= 5)
        #expect(fewest < 33)
    }

    @Test func aBodyMovedDestroyedOrCreatedByHandIsReadFromTheBodies() {
        let (w, boxes) = Self.scene(threads: 1)
        w.step(dt: 1.0 / 60, substeps: 4)
        let before = Self.collect(w)
        #expect(before.count == 33)
        // moved by hand: the list gives the new pose
        let top = boxes[boxes.count - 1]   // user data 503
        w.setTransform(top, position: Vec2(-500, -500), angle: 0.5)
        let moved = Self.collect(w)
        #expect(Self.bits(moved) == Self.bits(Self.read(w)))
        #expect(moved.first { $0.userData == 503 }?.transform.p == Vec2(-500, -500))
        // destroyed: gone from the list
        w.step(dt: 1.0 / 60, substeps: 4)
        w.destroyBody(top)
        let after = Self.collect(w)
        #expect(after.count == 32 && !after.contains { $0.userData == 503 })
        #expect(Self.bits(after) == Self.bits(Self.read(w)))
        // created (perhaps in the destroyed body's slot): read from the bodies too
        _ = Self.fire(w, 0)
        #expect(Self.bits(Self.collect(w)) == Self.bits(Self.read(w)))
    }
}
