// Port of victorchee/DynamicAnimator, DynamicAnimator/PendulumBehavior.swift (2015), a Swift version
// of Apple's UIKit Dynamics Catalog `APLPendulumBehavior`: a composite behaviour built from gravity
// and a rigid attachment to a pivot; dragging the weight adds a second attachment that follows the
// finger, and letting go removes it and fires an instantaneous push of (finger speed / 100).
//
// Edits beyond deleting `UI`: the weight view → `View(frame:)`; the gesture → the test calls the
// behaviour's drag methods; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: pendulum composite (victorchee/DynamicAnimator)")
struct PendulumPort {
    class PendulumBehavior: DynamicBehavior {
        private var draggingBehavior: AttachmentBehavior!
        private var pushBehavior: PushBehavior!

        convenience init(item: DynamicItem, suspendedFromPoint point: CGPoint) {
            self.init()

            let gravityBehavior = GravityBehavior(items: [item])
            let attachmentBehavior = AttachmentBehavior(item: item, attachedToAnchor: point)

            draggingBehavior = AttachmentBehavior(item: item, attachedToAnchor: CGPoint.zero)
            pushBehavior = PushBehavior(items: [item], mode: .instantaneous)
            pushBehavior.active = false

            addChildBehavior(gravityBehavior)
            addChildBehavior(attachmentBehavior)
            addChildBehavior(pushBehavior)
        }

        func beginDraggingWeightAtPoint(point: CGPoint) {
            draggingBehavior.anchorPoint = point
            addChildBehavior(draggingBehavior)
        }

        func dragWeightToPoint(point: CGPoint) {
            draggingBehavior.anchorPoint = point
        }

        func endDraggingWeightWithVelocity(velocity: CGPoint) {
            var magnitude = sqrt(pow(velocity.x, 2.0) + pow(velocity.y, 2.0))
            let angle = atan2(velocity.y, velocity.x)
            magnitude /= 100.0

            pushBehavior.angle = angle
            pushBehavior.magnitude = magnitude
            pushBehavior.active = true

            removeChildBehavior(draggingBehavior)
        }
    }

    @Test func theWeightSwingsWithThePendulumsPeriod() {
        let pivot = CGPoint(x: 187.5, y: 100)
        let weight = View(frame: CGRect(x: 162.5, y: 275, width: 50, height: 50))   // 200 pt below
        let animator = DynamicAnimator(referenceBounds: phoneBounds)
        let pendulum = PendulumBehavior(item: weight, suspendedFromPoint: pivot)
        animator.addBehavior(pendulum)
        #expect(pendulum.childBehaviors.count == 3)

        // Drag the weight 0.2 rad aside and let go without a flick.
        let theta0 = 0.2
        pendulum.beginDraggingWeightAtPoint(point: weight.center)
        let aside = CGPoint(x: pivot.x + 200 * CGFloat(sin(theta0)), y: pivot.y + 200 * CGFloat(cos(theta0)))
        pendulum.dragWeightToPoint(point: aside)
        animator.advance(by: 3)
        #expect(hypot(weight.center.x - aside.x, weight.center.y - aside.y) < 5)
        pendulum.endDraggingWeightWithVelocity(velocity: .zero)
        #expect(pendulum.childBehaviors.count == 3)

        // A rigid rod of 200 pt (a point mass swinging a square of 50 pt: a compound pendulum,
        // T = 2π √((L² + s²/6) / (g L))) under 1000 pt/s²: T = 0.894 s; the small-angle formula
        // holds to 0.1 % at 0.2 rad.
        var xs: [Double] = []
        for _ in 0..<(5 * 60) {
            animator.step()
            xs.append(Double(weight.center.x - pivot.x))
            #expect(abs(hypot(weight.center.x - pivot.x, weight.center.y - pivot.y) - 200) < 1)
        }
        let crossings = upwardCrossingsOf(xs, dt: 1.0 / 60)
        let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        let length = 200.0, side = 50.0, g = 1000.0
        let effective: Double = (length * length + side * side / 6) / length
        let expected = 2 * Double.pi * (effective / g).squareRoot()
        #expect(abs(period - expected) < 0.02 * expected)
        // The swing stays within the release angle: the rod adds no energy.
        #expect(xs.map(abs).max()! <= 200 * sin(theta0) + 1)
    }

    @Test func aFlickOnReleaseFiresTheInstantaneousPush() {
        let pivot = CGPoint(x: 187.5, y: 100)
        let weight = View(frame: CGRect(x: 162.5, y: 275, width: 50, height: 50))   // mass 0.25
        let animator = DynamicAnimator(referenceBounds: phoneBounds)
        let pendulum = PendulumBehavior(item: weight, suspendedFromPoint: pivot)
        animator.addBehavior(pendulum)
        animator.advance(by: 1)
        pendulum.beginDraggingWeightAtPoint(point: weight.center)
        // Let go with a flick of 100 pt/s to the right: magnitude 1, an impulse of 100 mass·pt/s,
        // 400 pt/s on the 0.25-mass weight, along the rod's tangent at the bottom.
        pendulum.endDraggingWeightWithVelocity(velocity: CGPoint(x: 100, y: 0))
        animator.step()
        let items = DynamicItemBehavior(items: [weight])
        animator.addBehavior(items)
        #expect(abs(items.linearVelocity(for: weight).x - 400) < 400 * 0.05)
    }

    func upwardCrossingsOf(_ samples: [Double], dt: Double) -> [Double] {
        var times: [Double] = []
        for k in 1..<samples.count where samples[k - 1] < 0 && samples[k] >= 0 {
            times.append(Double(k) * dt + dt * -samples[k - 1] / (samples[k] - samples[k - 1]))
        }
        return times
    }
}
