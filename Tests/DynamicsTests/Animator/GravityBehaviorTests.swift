import Foundation
import Testing

import Dynamics

@Suite("GravityBehavior")
struct GravityBehaviorTests {
    @Test func freeFallMatchesTheSemiImplicitEulerIntegral() {
        let animator = validatingAnimator()
        let item = square(at: CGPoint(x: 0, y: 0))
        animator.addBehavior(GravityBehavior(items: [item]))
        let steps = animator.advance(by: 1)
        #expect(steps == 60)
        // Semi-implicit Euler over N sub-steps of h: y = h²·g·N(N+1)/2 = ½·g·t²·(1 + 1/N).
        let n = 60.0 * 4
        let expected = 0.5 * 1000 * 1 * (1 + 1 / n)
        #expect(abs(Double(item.center.y) - expected) < 0.5)
        #expect(abs(Double(item.center.y) - 500) / 500 < 0.01)
        #expect(item.center.x == 0)
        #expect(validationErrors(of: animator).isEmpty)
    }

    @Test func accelerationDoesNotDependOnMass() {
        let animator = DynamicAnimator()
        let light = square(10, at: CGPoint(x: 0, y: 0))
        let heavy = square(300, at: CGPoint(x: 1000, y: 0))
        let density = DynamicItemBehavior(items: [heavy])
        density.density = 7
        animator.addBehavior(density)
        animator.addBehavior(GravityBehavior(items: [light, heavy]))
        animator.advance(by: 0.5)
        #expect(abs(light.center.y - heavy.center.y) < 1e-3)
    }

    @Test func directionAngleAndMagnitudeAreOneValue() {
        let g = GravityBehavior()
        #expect(g.gravityDirection == CGVector(dx: 0, dy: 1))
        #expect(abs(g.angle - .pi / 2) < 1e-12)
        #expect(g.magnitude == 1)
        g.gravityDirection = CGVector(dx: 0, dy: 2)
        #expect(g.magnitude == 2)
        #expect(abs(g.angle - .pi / 2) < 1e-12)
        g.gravityDirection = CGVector(dx: 3, dy: 4)
        #expect(g.magnitude == 5)
        g.magnitude = 0
        #expect(g.gravityDirection == .zero)
        #expect(g.angle == 0)
        g.angle = .pi
        g.magnitude = 2
        #expect(abs(g.gravityDirection.dx + 2) < 1e-12)
        #expect(abs(g.gravityDirection.dy) < 1e-12)
        g.setAngle(0, magnitude: 0.5)
        #expect(abs(g.gravityDirection.dx - 0.5) < 1e-12)
    }

    @Test func sidewaysGravityPullsSideways() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let g = GravityBehavior(items: [item])
        g.setAngle(0, magnitude: 0.5)
        animator.addBehavior(g)
        animator.advance(by: 1)
        let expected = 0.5 * 500 * (1 + 1 / 240.0)
        #expect(abs(Double(item.center.x) - expected) < 0.5)
        #expect(abs(item.center.y) < 1e-3)
    }

    @Test func badValuesAreReportedAndIgnored() {
        let animator = DynamicAnimator()
        let g = GravityBehavior()
        g.magnitude = .nan
        g.gravityDirection = CGVector(dx: CGFloat.infinity, dy: 0)
        g.angle = -.infinity
        #expect(g.gravityDirection == CGVector(dx: 0, dy: 1))
        #expect(animator.diagnostics.isEmpty)
        animator.addBehavior(g)
        // Diagnostics raised before the behaviour joined are delivered when it joins.
        #expect(animator.diagnostics.count == 3)
    }

    @Test func gravityAloneDoesNotWakeARestingItem() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let item = square(50, at: CGPoint(x: 200, y: 374))
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: [item])
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.advance(by: 3)
        #expect(!animator.isRunning)
        let y = item.center.y
        animator.advance(by: 1)
        #expect(item.center.y == y)
        #expect(!animator.isRunning)
        // A change of gravity wakes the item: it now falls sideways... into the right wall.
        gravity.angle = 0
        #expect(animator.isRunning)
        animator.advance(by: 1)
        #expect(item.center.x > 300)
    }
}
