@testable import DynamicsEngine
import Testing

/// The contact keys (`ContactKey`): the scan of the contact slots reads them instead of the
/// records, so every writer of a contact's bodies, colour, touch or life must keep its key equal,
/// and the validation walk must notice when one does not.
@Suite struct ContactKeyTests {
    /// Whether every slot's key says what its record says (bodies, colour, live, touching).
    static func keysMatch(_ w: World) -> Bool {
        w.contacts.indices.allSatisfy { i in
            let k = w.contactKeys.base[i], c = w.contacts[i]
            return k.isAlive == c.isAlive && k.isTouching == c.isTouching && k.color == c.color
                && k.bodyA == c.bodyA && k.bodyB == c.bodyB
        }
    }

    /// The contacts a step solves, by the records: touching, with an awake body.
    static func solvable(_ w: World) -> Int {
        w.contacts.reduce(0) { n, c in
            guard c.isAlive, c.isTouching else { return n }
            return n + (w.bodies[Int(c.bodyA)].awakeIndex >= 0 || w.bodies[Int(c.bodyB)].awakeIndex >= 0 ? 1 : 0)
        }
    }

    /// A pile that lands, loses bodies, has one made static and dynamic again, falls asleep, is
    /// woken, and is restored into another world: after every step the keys match the records and
    /// the validation walk finds nothing; in every step where no body fell asleep or woke, the
    /// step solved exactly the contacts the records say (touching, with an awake body).
    @Test func everyWriterKeepsTheKeys() throws {
        let w = makeWorld(sleep: true)
        addBox(w, .static, at: Vec2(0, 100), half: Vec2(400, 10))
        var boxes: [BodyID] = []
        for row in 0..<6 {
            for col in 0..<8 {
                let x = Float(col) * 22 - 80 + Float(row % 2) * 5, y = 80 - Float(row) * 21
                boxes.append(addBox(w, at: Vec2(x, y), half: Vec2(10, 10)))
            }
        }
        func check(_ w: World, _ step: Int, awakeBefore: Int) -> Bool {
            #expect(ContactKeyTests.keysMatch(w), "step \(step)")
            #expect(w.validationErrors.isEmpty, "step \(step): \(w.validationErrors.prefix(3))")
            guard w.awakeBodyCount == awakeBefore, awakeBefore > 0 else { return false }
            let solved = w.lastColorCounts.reduce(0, +)   // no joints: every constraint is a contact
            #expect(solved == ContactKeyTests.solvable(w), "step \(step)")
            return solved > 0
        }
        var stepsChecked = 0
        for step in 0..<400 {
            let awake = w.awakeBodyCount
            w.step(dt: 1.0 / 60, substeps: 4)
            if check(w, step, awakeBefore: awake) { stepsChecked += 1 }
            if step == 60 { for b in boxes.prefix(5) { w.destroyBody(b) } }
            if step == 90 { w.setBodyType(boxes[20], .static) }
            if step == 120 { w.setBodyType(boxes[20], .dynamic) }
            if step == 300 { w.wake(boxes[30]) }
        }
        #expect(stepsChecked > 100, "steps with touching contacts to solve were compared")
        #expect(w.awakeBodyCount == 0, "the pile fell asleep, so sleeping contacts were skipped too")
        w.wake(boxes[40])
        let snap = w.snapshot()
        let other = makeWorld(sleep: true)
        try other.restore(snap)
        #expect(ContactKeyTests.keysMatch(other))
        for step in 0..<30 {
            let awake = other.awakeBodyCount
            other.step(dt: 1.0 / 60, substeps: 4)
            w.step(dt: 1.0 / 60, substeps: 4)
            _ = check(other, step, awakeBefore: awake)
        }
        #expect(other.stateHash() == w.stateHash(), "the restored world's keys found the same contacts")
    }

    /// A key that disagrees with its record is named by the validation walk.
    @Test func aStaleKeyIsFound() {
        let w = makeWorld(sleep: false)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(400, 50))
        addBox(w, at: Vec2(0, -11), half: Vec2(10, 10))
        run(w, steps: 10)
        let touching = w.touchingContactColors
        #expect(touching.count == 1)
        #expect(w.validate().isEmpty)
        w.contactKeys.base[touching[0].slot].isTouching = false
        #expect(w.validate().contains { $0.contains("key differs from its record") })
    }
}
