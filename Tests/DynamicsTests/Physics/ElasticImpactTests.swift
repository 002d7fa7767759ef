// Elastic impacts against the one-dimensional collision laws: for masses m₁, m₂, approach speed v
// and restitution e, after the impact v₁' = (m₁ − e·m₂)·v/(m₁ + m₂) and v₂' = (1 + e)·m₁·v/(m₁ + m₂);
// along a row of equal balls the impact passes from ball to ball (a Newton's cradle).
import Dynamics
import Foundation
import Testing

@Suite("Elastic impacts")
struct ElasticImpactTests {
    /// Balls of the given diameters in a row along x, no gravity, the first moving at `speed`
    /// toward the others; `gaps` pt between neighbours. Returns the balls' x velocities after
    /// `seconds`.
    func row(diameters: [CGFloat], gaps: CGFloat, firstGap: CGFloat = 100, speed: CGFloat = 300,
             elasticity: CGFloat = 1, seconds: Double = 1) -> [CGFloat] {
        let animator = DynamicAnimator()
        var x: CGFloat = 0
        var balls: [BasicDynamicItem] = []
        for (k, d) in diameters.enumerated() {
            if k > 0 { x += diameters[k - 1] / 2 + (k == 1 ? firstGap : gaps) + d / 2 }
            balls.append(BasicDynamicItem(center: CGPoint(x: x, y: 0), size: CGSize(width: d, height: d),
                                          collisionBoundsType: .ellipse))
        }
        let collision = CollisionBehavior(items: balls)
        let material = DynamicItemBehavior(items: balls)
        material.elasticity = elasticity
        material.allowsRotation = false
        animator.addBehavior(collision)
        animator.addBehavior(material)
        material.addLinearVelocity(CGPoint(x: speed, y: 0), for: balls[0])
        for _ in 0..<Int(seconds * 60) { animator.step() }
        return balls.map { material.linearVelocity(for: $0).x }
    }

    @Test func twoEqualBallsSwapVelocities() {
        let v = row(diameters: [40, 40], gaps: 0)
        #expect(abs(v[0]) < 1)
        #expect(abs(v[1] - 300) < 1)
    }

    /// Masses 1 : 4 (diameters 40 and 80): v₁' = −0.6·v, v₂' = 0.4·v for e = 1; for e = 0.5,
    /// v₁' = −0.2·v, v₂' = 0.3·v.
    @Test(arguments: [(1.0, -0.6, 0.4), (0.5, -0.2, 0.3)] as [(CGFloat, CGFloat, CGFloat)])
    func unequalMassesFollowTheCollisionLaw(e: CGFloat, first: CGFloat, second: CGFloat) {
        let v = row(diameters: [40, 80], gaps: 0, elasticity: e)
        #expect(abs(v[0] - first * 300) < 3)
        #expect(abs(v[1] - second * 300) < 3)
    }

    /// A row of touching balls 1 pt apart (inside the speculative margin) struck at one end: the
    /// last leaves at the striker's speed, the others stay.
    @Test(arguments: [3, 5, 8])
    func anImpactPassesAlongARow(count: Int) {
        let v = row(diameters: Array(repeating: 40, count: count), gaps: 1)
        #expect(abs(v[count - 1] - 300) < 3)
        for k in 0..<(count - 1) { #expect(abs(v[k]) < 3, "ball \(k + 1)") }
    }

    /// Momentum is kept whatever the row: the total is the striker's.
    @Test func momentumIsKeptAlongAMixedRow() {
        let d: [CGFloat] = [40, 60, 30, 50]
        let v = row(diameters: d, gaps: 1, elasticity: 0.8)
        let masses = d.map { .pi * $0 * $0 / 4 }
        let p = zip(masses, v).map { $0 * $1 }.reduce(0, +)
        #expect(abs(p / (masses[0] * 300) - 1) < 1e-3)
    }

    /// A lone ball dropped on the floor with e = 1 touches it, then rises back to its drop height.
    @Test func aBallBouncesOnTheFloorToItsDropHeight() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 200, height: 400))
        let ball = BasicDynamicItem(center: CGPoint(x: 100, y: 100), size: CGSize(width: 40, height: 40),
                                    collisionBoundsType: .ellipse)
        let collision = CollisionBehavior(items: [ball])
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior(items: [ball])
        material.elasticity = 1
        animator.addBehavior(GravityBehavior(items: [ball]))
        animator.addBehavior(collision)
        animator.addBehavior(material)
        var lowest: CGFloat = 0, highestAfter: CGFloat = 400
        var bounced = false
        for _ in 0..<60 {   // it lands after √(2·260/1000) = 0.72 s and is back up at 1.44 s
            animator.step()
            lowest = max(lowest, ball.center.y)
            if material.linearVelocity(for: ball).y < 0 { bounced = true }
            if bounced { highestAfter = min(highestAfter, ball.center.y) }
        }
        for _ in 0..<40 { animator.step(); highestAfter = min(highestAfter, ball.center.y) }
        #expect(bounced)
        #expect(lowest > 380 - 1)                     // it touched the floor (within 1 pt)
        // back up to within a step's travel at the top (v ≈ 0 there) and the 1 % the speculative
        // stop keeps from the fall: 260 pt of drop
        #expect(abs(highestAfter - 100) < 0.01 * 260)
    }
}
