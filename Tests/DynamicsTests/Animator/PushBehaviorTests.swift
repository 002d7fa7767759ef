import Foundation
import Testing

import Dynamics

@Suite("PushBehavior")
struct PushBehaviorTests {
    /// The velocity an instantaneous push of `magnitude` gives an item of `size` and `density`.
    func impulseVelocity(size: CGSize, density: CGFloat, magnitude: CGFloat = 1,
                         type: DynamicItemCollisionBoundsType = .rectangle) -> CGFloat {
        let animator = validatingAnimator()
        let item = BasicDynamicItem(center: .zero, size: size, collisionBoundsType: type)
        let material = DynamicItemBehavior(items: [item])
        material.density = density
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.setAngle(0, magnitude: magnitude)
        animator.addBehavior(material)
        animator.addBehavior(push)
        animator.step()
        #expect(!push.active)
        #expect(validationErrors(of: animator).isEmpty)
        return material.linearVelocity(for: item).x
    }

    @Test func instantaneousPushOfOneGivesOneHundredPointsPerSecondToMassOne() {
        #expect(abs(impulseVelocity(size: CGSize(width: 100, height: 100), density: 1) - 100) < 1e-3)
    }

    @Test func instantaneousPushOnDensityTwoGivesFifty() {
        #expect(abs(impulseVelocity(size: CGSize(width: 100, height: 100), density: 2) - 50) < 1e-3)
    }

    @Test func massUnitsFollowUIKit() {
        // 200 × 50 pt at density 3: mass 3.
        #expect(abs(impulseVelocity(size: CGSize(width: 200, height: 50), density: 3) - 100.0 / 3) < 1e-3)
        // 0.3 on 200 × 50 at density 2 (mass 2): 15 pt/s.
        #expect(abs(impulseVelocity(size: CGSize(width: 200, height: 50), density: 2, magnitude: 0.3) - 15) < 1e-3)
        // An ellipse's area is π·w·h/4: 200 × 100 at density 1 has mass π/2.
        let v = impulseVelocity(size: CGSize(width: 200, height: 100), density: 1, type: .ellipse)
        #expect(abs(v - 100 / (.pi / 2)) < 1e-2)
    }

    @Test func instantaneousPushActsOnceAndAgainWhenReactivated() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: 1)
        animator.addBehavior(push)
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(probe)
        animator.advance(by: 0.5)
        #expect(abs(probe.linearVelocity(for: item).y - 100) < 1e-3)
        push.active = true
        animator.step()
        #expect(abs(probe.linearVelocity(for: item).y - 200) < 1e-3)
    }

    @Test func continuousPushAcceleratesAtOneHundredPointsPerSecondSquared() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let push = PushBehavior(items: [item], mode: .continuous)
        push.magnitude = 1
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.advance(by: 1)
        #expect(abs(probe.linearVelocity(for: item).x - 100) < 1e-3)
        #expect(abs(Double(item.center.x) - 50 * (1 + 1 / 240.0)) < 0.01)
        #expect(push.active)
        push.active = false
        animator.advance(by: 1)
        #expect(abs(probe.linearVelocity(for: item).x - 100) < 1e-3)
    }

    @Test func targetOffsetTurnsTheItem() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 1, dy: 0)
        // Pushing +x at a point above the center (y < 0, y down) turns the item clockwise on
        // screen, from +x toward +y: a positive angular velocity, r × J = 50 × 100 on the
        // inertia m(w² + h²)/12.
        push.setTargetOffsetFromCenter(CGPoint(x: 0, y: -50), for: item)
        #expect(push.targetOffsetFromCenter(for: item) == CGPoint(x: 0, y: -50))
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step()
        let inertia = 1.0 * (100 * 100 + 100 * 100) / 12
        #expect(abs(Double(probe.angularVelocity(for: item)) - (100 * 50 / inertia)) < 1e-3)
        #expect(abs(probe.linearVelocity(for: item).x - 100) < 1e-3)
    }

    @Test func defaults() {
        let push = PushBehavior(items: [], mode: .continuous)
        #expect(push.active)
        #expect(push.pushDirection == .zero)
        #expect(push.angle == 0)
        #expect(push.magnitude == 0)
        #expect(push.mode == .continuous)
        #expect(PushBehavior().mode == .continuous)
        push.angle = .pi / 2
        push.magnitude = 2
        #expect(abs(push.pushDirection.dy - 2) < 1e-12)
        #expect(abs(push.pushDirection.dx) < 1e-12)
    }

    @Test func aPausedAnimatorResumesWhenAPushBecomesActive() {
        let animator = DynamicAnimator()
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        let item = square(at: .zero)
        let push = PushBehavior(items: [item], mode: .continuous)
        push.active = false
        push.magnitude = 1
        animator.addBehavior(push)
        animator.advance(by: 1)
        #expect(!animator.isRunning)
        #expect(recorder.events == ["resume", "pause"])
        push.active = true
        #expect(animator.isRunning)
        #expect(recorder.events == ["resume", "pause", "resume"])
        animator.advance(by: 0.5)
        #expect(item.center.x > 10)
    }
}
