import DynamicsEngine
import Testing

/// The contact budget (`World.crowdLimit`) binds only among deeply overlapping shapes of similar
/// size: a shape keeps every pair with static shapes and with shapes under half its size, however
/// many, and a snapshot taken in a heap continues bit for bit alike.
@Suite struct ContactBudgetTests {
    /// 200 boxes of 10 pt resting side by side on one static floor, and 200 circles of 5 pt
    /// touching one dynamic 2 000 pt plank from above: the floor and the plank each have 200
    /// pairs (over three times the budget), and all are made.
    @Test func pairsWithStaticOrSmallerShapesAreNeverLimited() {
        let w = makeWorld(gravity: .zero)
        addBox(w, .static, at: Vec2(0, 10), half: Vec2(1100, 10))
        for k in 0..<200 { addBox(w, at: Vec2(-1000 + 10.5 * Float(k), -5), half: Vec2(5, 5)) }
        addBox(w, at: Vec2(0, -300), half: Vec2(1100, 10))
        for k in 0..<200 { addCircle(w, at: Vec2(-1000 + 10.5 * Float(k), -315), radius: 5) }
        w.step(dt: 1.0 / 60, substeps: 4)
        // each small box: the floor and its two neighbours; each circle: the plank and its two
        // neighbours (a fat box reaches 2 pt + a 0.88 pt margin past each 10 pt shape: it overlaps
        // its neighbours', 10.5 pt away, not the next ones', 21 pt away)
        #expect(w.contactCount == 200 + 199 + 200 + 199)
        #expect(w.lastStepCrowdLimited == 0)
        #expect(w.validationErrors.isEmpty)
    }

    /// 300 equal circles on one point: at most `crowdLimit` pairs each, so at most 300·64/2.
    @Test func aHeapOfEqualShapesKeepsAtMostTheBudgetPerShape() {
        let w = makeWorld(gravity: .zero)
        for _ in 0..<300 { addCircle(w, at: Vec2(0, 0), radius: 10) }
        w.step(dt: 1.0 / 60, substeps: 4)
        #expect(w.contactCount <= 300 * Int(World.crowdLimit) / 2)
        #expect(w.maximumCrowdCount <= Int(World.crowdLimit))
        #expect(w.lastStepCrowdLimited > 0)
        #expect(w.validationErrors.isEmpty)
    }

    /// A snapshot of a heap restores the budget's counts with the pairs: the restored world and
    /// the original step on bit for bit alike.
    @Test func aHeapContinuesAlikeAfterASnapshot() throws {
        let w = makeWorld(gravity: .zero)
        for k in 0..<300 { addBox(w, at: Vec2(Float(k % 3), 0), half: Vec2(10, 10)) }
        run(w, steps: 3)
        let data = w.snapshot()
        let copy = makeWorld(gravity: .zero)
        try copy.restore(data)
        run(w, steps: 10)
        run(copy, steps: 10)
        #expect(w.stateHash() == copy.stateHash())
        #expect(w.maximumCrowdCount == copy.maximumCrowdCount && w.contactCount == copy.contactCount)
    }
}
