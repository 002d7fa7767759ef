@testable import DynamicsEngine
import Testing

/// The solve order's groups of rows (`ColorGroups`): within each colour, the contacts come group
/// by group, so a thread's share of every colour updates mostly the same bodies' rows. The order
/// within a colour changes no bit (the determinism suites' pinned hashes hold at 1, 2 and 3
/// threads); these tests check the buckets, and that the kept joint graph, which is not grouped,
/// stays sound beside it.
@Suite struct ColorGroupsTests {
    /// Overflow constraints stay in one group (they are solved in order); a pair's group is its
    /// rows' midpoint's, a pair with a body that is not awake takes the awake one's.
    @Test func bucketsFollowTheRows() {
        let g = ColorGroups(groups: 2, awakeCount: 100)
        #expect(g.count == ConstraintColoring.colorCount * 2)
        #expect(g.of(0, 10, 90) == 0)
        #expect(g.of(0, 60, 100) == 0)
        #expect(g.of(3, 10, 20) == 6)       // both rows in the first half
        #expect(g.of(3, 70, 80) == 7)       // both in the second
        #expect(g.of(3, 10, 80) == 6)       // midpoint 45
        #expect(g.of(3, 30, 90) == 7)       // midpoint 60
        #expect(g.of(5, 99, 100) == 11)     // against a body that is not awake: its own row
        #expect(g.of(5, 100, 3) == 10)
        let one = ColorGroups(groups: 1, awakeCount: 100)
        #expect(one.of(7, 99, 0) == 7)      // one thread: one group, the colour itself
        let many = ColorGroups(groups: 64, awakeCount: 5)
        #expect(many.groups == 16)
        #expect((0..<5).allSatisfy { many.of(1, Int32($0), 5) < 2 * many.groups })
    }

    /// Chains beside free boxes on two threads, checked after every step (`WorldDef.validate`):
    /// the boxes fall asleep and are woken while the chains swing, which changes the awake list
    /// (and the rows) around the jointed bodies; the kept joint colours stay those a fresh choice
    /// makes, and the run ends bit for bit as on one thread. (It failed when the joints were
    /// grouped by rows too: their kept order went stale as rows moved.)
    @Test func keptJointsStaySoundWhileOtherBodiesSleepAndWake() {
        func run(threads: Int) -> UInt64 {
            var d = WorldDef()
            d.gravity = Vec2(0, 1000)
            d.validate = true
            d.workerCount = threads
            let w = World(def: d)
            addBox(w, .static, at: Vec2(0, 200), half: Vec2(600, 20))
            var boxes: [BodyID] = []
            for k in 0..<12 { boxes.append(addBox(w, at: Vec2(-500 + Float(k) * 40, 165), half: Vec2(15, 15))) }
            for c in 0..<4 {
                let chain = addChain(w, anchor: Vec2(-100 + Float(c) * 80, -200), links: 10, half: Vec2(5, 2))
                #expect(w.jointCount == 10 * (c + 1) && chain.count == 10)
            }
            for step in 0..<240 {
                if step == 120 || step == 200 {
                    for b in boxes.prefix(6) { w.applyLinearImpulse(b, Vec2(0, -3000), at: w.position(b)) }
                }
                w.step(dt: 1.0 / 60, substeps: 4)
                #expect(w.validationErrors.isEmpty, "\(threads) threads, step \(step): \(w.validationErrors)")
            }
            return w.stateHash()
        }
        #expect(run(threads: 1) == run(threads: 2))
    }
}

