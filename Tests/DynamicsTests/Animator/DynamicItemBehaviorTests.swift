import Foundation
import Testing

@testable import Dynamics

/// Hears the animator resume and runs `onResume` there.
private final class ResumeListener: DynamicAnimatorDelegate {
    var onResume: () -> Void = {}
    func dynamicAnimatorWillResume(_ animator: DynamicAnimator) { onResume() }
    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
}

@Suite("DynamicItemBehavior")
struct DynamicItemBehaviorTests {
    /// A setter calls the app while it runs: the diagnostic handler for a refused value, the
    /// delegate of a paused animator it resumes. The app may read the property there and sees the
    /// last good value, then the new one. (The material setters used to hold their storage
    /// `inout` across those calls, and a read from either callback stopped the program with
    /// "simultaneous accesses"; the shared setters take key paths.)
    @Test func callbacksDuringASetterMayReadTheProperty() {
        let item = square(at: .zero)
        let material = DynamicItemBehavior(items: [item])
        let animator = DynamicAnimator()
        animator.addBehavior(material)
        var heard: [CGFloat] = []
        animator.diagnosticHandler = { _ in heard.append(material.elasticity) }
        material.elasticity = .nan
        let listener = ResumeListener()
        listener.onResume = { heard.append(material.elasticity) }
        animator.delegate = listener
        var paused = false
        for _ in 0..<600 where !paused {
            animator.step()
            paused = !animator.isRunning
        }
        #expect(paused)
        material.elasticity = 0.5
        #expect(heard == [0, 0.5])
    }
    @Test func defaults() {
        let b = DynamicItemBehavior()
        #expect(b.elasticity == 0 && b.friction == 0 && b.density == 1)
        #expect(b.resistance == 0 && b.angularResistance == 0 && b.charge == 0)
        #expect(!b.isAnchored && b.allowsRotation)
        #expect(b.items.isEmpty)
    }

    @Test func velocitiesAddedBeforeAssociationAccumulateAndApply() {
        let item = square(at: .zero)
        let b = DynamicItemBehavior(items: [item])
        b.addLinearVelocity(CGPoint(x: 10, y: 0), for: item)
        b.addLinearVelocity(CGPoint(x: 5, y: -3), for: item)
        b.addAngularVelocity(0.5, for: item)
        #expect(b.linearVelocity(for: item) == CGPoint(x: 15, y: -3))
        #expect(b.angularVelocity(for: item) == 0.5)
        let animator = DynamicAnimator()
        animator.addBehavior(b)
        #expect(abs(b.linearVelocity(for: item).x - 15) < 1e-4)
        #expect(abs(b.linearVelocity(for: item).y + 3) < 1e-4)
        #expect(abs(b.angularVelocity(for: item) - 0.5) < 1e-6)
        animator.advance(by: 1)
        #expect(abs(item.center.x - 15) < 1e-3)
        #expect(abs(item.center.y + 3) < 1e-3)
        #expect(abs(item.angle - 0.5) < 1e-3)
        b.addLinearVelocity(CGPoint(x: -15, y: 3), for: item)
        #expect(abs(b.linearVelocity(for: item).x) < 1e-4)
    }

    @Test func resistanceIsLinearDampingPerSecond() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let b = DynamicItemBehavior(items: [item])
        b.resistance = 1
        b.addLinearVelocity(CGPoint(x: 100, y: 0), for: item)
        animator.addBehavior(b)
        animator.advance(by: 1)
        // v ← v / (1 + h·c) every sub-step: 240 sub-steps of 1/240 s.
        let expected: Double = 100 * Foundation.pow(1.0 + 1.0 / 240.0, -240.0)
        #expect(abs(Double(b.linearVelocity(for: item).x) - expected) < 1e-3)
    }

    @Test func anchoredItemsStayPutButStillCollide() {
        let animator = DynamicAnimator()
        let floor = BasicDynamicItem(center: CGPoint(x: 0, y: 300), size: CGSize(width: 400, height: 20))
        let ball = square(40, at: CGPoint(x: 0, y: 0), type: .ellipse)
        let anchored = DynamicItemBehavior(items: [floor])
        anchored.isAnchored = true
        animator.addBehavior(anchored)
        animator.addBehavior(GravityBehavior(items: [floor, ball]))
        animator.addBehavior(CollisionBehavior(items: [floor, ball]))
        animator.advance(by: 2)
        #expect(floor.center == CGPoint(x: 0, y: 300))
        #expect(abs(ball.center.y - 270) < 1)
        // Un-anchoring lets the floor fall too.
        anchored.isAnchored = false
        animator.advance(by: 1)
        #expect(floor.center.y > 500)
    }

    @Test func allowsRotationFalseLocksTheAngle() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let b = DynamicItemBehavior(items: [item])
        b.allowsRotation = false
        b.addAngularVelocity(3, for: item)
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 1, dy: 0)
        push.setTargetOffsetFromCenter(CGPoint(x: 0, y: 40), for: item)
        animator.addBehavior(b)
        animator.addBehavior(push)
        animator.advance(by: 1)
        #expect(item.angle == 0)
        #expect(abs(item.center.x - 100) < 0.1)
    }

    @Test func densityChangesTheMass() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let b = DynamicItemBehavior(items: [item])
        b.density = 4
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.magnitude = 1
        animator.addBehavior(b)
        animator.addBehavior(push)
        animator.step()
        #expect(abs(b.linearVelocity(for: item).x - 25) < 1e-3)
    }

    @Test func theLastBehaviorInDepthFirstOrderWinsAndRemovalRestores() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let first = DynamicItemBehavior(items: [item])
        first.density = 2
        first.friction = 0.7
        let parent = DynamicBehavior()
        let second = DynamicItemBehavior(items: [item])
        second.density = 4     // sets density only: friction still comes from `first`
        parent.addChildBehavior(second)
        animator.addBehavior(parent)
        animator.addBehavior(first)   // first is later in depth-first order: density 2 wins
        animator.step()
        let record = animator.record(for: item)!
        #expect(record.properties.density == 2)
        #expect(record.properties.friction == 0.7)
        animator.removeBehavior(first)
        animator.step()
        #expect(record.properties.density == 4)
        #expect(record.properties.friction == 0)
        parent.removeChildBehavior(second)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.step()
        #expect(animator.record(for: item)!.properties == ItemProperties())
        #expect(abs(animator.mass(of: animator.record(for: item)!) - 1) < 1e-6)
    }

    @Test func badValuesKeepTheLastGoodValue() {
        let animator = DynamicAnimator()
        let b = DynamicItemBehavior()
        animator.addBehavior(b)
        b.elasticity = -1
        b.friction = .nan
        b.density = 0
        b.density = -3
        b.resistance = .infinity
        b.angularResistance = -0.1
        b.charge = .nan
        b.addLinearVelocity(CGPoint(x: CGFloat.nan, y: 0), for: square(at: .zero))
        b.addAngularVelocity(.infinity, for: square(at: .zero))
        #expect(animator.diagnostics.count == 9)
        #expect(b.elasticity == 0 && b.friction == 0 && b.density == 1 && b.resistance == 0)
        b.charge = -2
        #expect(b.charge == -2)
        #expect(animator.diagnostics.count == 9)
    }

    @Test func frictionStopsASlidingItem() {
        func slide(friction: CGFloat) -> CGFloat {
            let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 2000, height: 400))
            let item = square(50, at: CGPoint(x: 100, y: 375))
            let material = DynamicItemBehavior(items: [item])
            material.friction = friction
            material.addLinearVelocity(CGPoint(x: 300, y: 0), for: item)
            let collision = CollisionBehavior(items: [item])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(material)
            animator.addBehavior(collision)
            animator.addBehavior(GravityBehavior(items: [item]))
            animator.advance(by: 2)
            return item.center.x
        }
        // μ = 0.5 against the boundary (the item's own friction): decelerates at μg = 500 pt/s²,
        // stopping after v²/(2μg) = 90 pt.
        #expect(abs(slide(friction: 0.5) - 190) < 5)
        #expect(slide(friction: 0) > 650)
    }
}
