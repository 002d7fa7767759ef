import Foundation
import Testing

@testable import Dynamics

@Suite("AttachmentBehavior")
struct AttachmentBehaviorTests {
    @Test func rigidPendulumSwingsWithPeriodTwoPiRootLOverG() {
        let animator = validatingAnimator()
        let anchor = CGPoint(x: 0, y: 0)
        let length = 200.0, theta0 = 0.1
        let bob = square(20, at: CGPoint(x: length * sin(theta0), y: length * cos(theta0)))
        animator.addBehavior(GravityBehavior(items: [bob]))
        let rod = AttachmentBehavior(item: bob, attachedToAnchor: anchor)
        #expect(abs(rod.length - length) < 1e-9)
        #expect(rod.attachedBehaviorType == .anchor)
        animator.addBehavior(rod)
        var xs: [Double] = []
        run(animator, steps: 60 * 10) { _ in xs.append(Double(bob.center.x)) }
        let period = meanPeriod(upwardCrossings(xs, dt: 1.0 / 60))
        let expected = 2 * Double.pi * (length / 1000).squareRoot()
        #expect(abs(period - expected) / expected < 0.02)
        // The rod keeps its length.
        let r = hypot(Double(bob.center.x), Double(bob.center.y))
        #expect(abs(r - length) < 1)
        #expect(animator.world.validationErrors.isEmpty)
    }

    @Test func springOscillatesAtItsFrequency() {
        let animator = validatingAnimator()
        let item = square(60, at: CGPoint(x: 0, y: 200))
        let heavy = DynamicItemBehavior(items: [item])
        heavy.density = 10
        let spring = AttachmentBehavior(item: item, attachedToAnchor: .zero)
        spring.frequency = 2
        spring.damping = 0
        spring.length = 150
        animator.addBehavior(heavy)
        animator.addBehavior(spring)
        var stretch: [Double] = []
        run(animator, steps: 60 * 3) { _ in stretch.append(hypot(Double(item.center.x), Double(item.center.y)) - 150) }
        let period = meanPeriod(upwardCrossings(stretch, dt: 1.0 / 60))
        #expect(abs(1 / period - 2) / 2 < 0.03)
        // Undamped: still swinging after 3 s.
        #expect(stretch.suffix(30).max()! > 5)
        #expect(animator.world.validationErrors.isEmpty)
    }

    @Test func dampedSpringSettlesAtItsLength() {
        let animator = DynamicAnimator()
        let item = square(60, at: CGPoint(x: 0, y: 300))
        let spring = AttachmentBehavior(item: item, attachedToAnchor: .zero)
        spring.frequency = 3
        spring.damping = 1
        spring.length = 100
        animator.addBehavior(spring)
        animator.advance(by: 3)
        #expect(abs(hypot(item.center.x, item.center.y) - 100) < 0.5)
    }

    /// UIKit Dynamics Catalog, "Attachments": an item hung from an anchor stays at the attachment's length.
    @Test func catalogAttachmentsDemoKeepsTheLength() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 568))
        let anchor = CGPoint(x: 160, y: 100)
        let square = square(50, at: CGPoint(x: 260, y: 200))
        let attachment = AttachmentBehavior(item: square, offsetFromCenter: CGPoint(x: -25, y: -25), attachedToAnchor: anchor)
        let length = attachment.length
        #expect(abs(length - hypot(235 - 160, 175 - 100)) < 1e-9)
        animator.addBehavior(attachment)
        animator.addBehavior(GravityBehavior(items: [square]))
        var worst = 0.0
        run(animator, steps: 60 * 4) { _ in
            let corner = CGPoint(x: -25, y: -25).rotatedForAnimator(by: square.angle)
            let d = hypot(Double(square.center.x + corner.x - anchor.x), Double(square.center.y + corner.y - anchor.y))
            worst = max(worst, abs(d - Double(length)))
        }
        #expect(worst < 1)
        // It swung down below the anchor and turned.
        #expect(square.center.y > anchor.y)
        // Moving the anchor moves the item and keeps the length.
        attachment.anchorPoint = CGPoint(x: 100, y: 100)
        animator.advance(by: 4)
        let corner = CGPoint(x: -25, y: -25).rotatedForAnimator(by: square.angle)
        let d = hypot(square.center.x + corner.x - 100, square.center.y + corner.y - 100)
        #expect(abs(d - length) < 1)
    }

    @Test func itemToItemRodKeepsDistanceAndItemsDoNotCollide() {
        let animator = DynamicAnimator()
        let a = square(40, at: CGPoint(x: 0, y: 0), name: "a")
        let b = square(40, at: CGPoint(x: 30, y: 0), name: "b")   // overlapping: joined items don't collide
        let rod = AttachmentBehavior(item: a, attachedTo: b)
        #expect(rod.attachedBehaviorType == .items)
        #expect(rod.items.count == 2)
        let collision = CollisionBehavior(items: [a, b])
        let push = PushBehavior(items: [a], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: 0.2)
        animator.addBehavior(rod)
        animator.addBehavior(collision)
        animator.addBehavior(push)
        animator.advance(by: 1)
        #expect(abs(hypot(a.center.x - b.center.x, a.center.y - b.center.y) - 30) < 1)
    }

    @Test func limitAttachmentIsARope() {
        let animator = DynamicAnimator()
        let top = square(20, at: CGPoint(x: 0, y: 0))
        let bottom = square(20, at: CGPoint(x: 0, y: 100))
        let pin = DynamicItemBehavior(items: [top])
        pin.isAnchored = true
        let rope = AttachmentBehavior.limitAttachment(with: top, offsetFromCenter: .zero, attachedTo: bottom, offsetFromCenter: .zero)
        #expect(abs(rope.length - 100) < 1e-9)
        animator.addBehavior(pin)
        animator.addBehavior(rope)
        // Pushed up, the bottom item moves freely toward the top (a rope does not push)...
        let up = PushBehavior(items: [bottom], mode: .instantaneous)
        up.pushDirection = CGVector(dx: 0, dy: -0.5)
        animator.addBehavior(up)
        animator.advance(by: 0.5)
        #expect(bottom.center.y < 80)
        // ...and under gravity it hangs at the rope's full length.
        animator.addBehavior(GravityBehavior(items: [bottom]))
        animator.advance(by: 3)
        #expect(abs(bottom.center.y - 100) < 1)
    }

    @Test func pinLetsItemsTurnAboutTheAnchorAndFrictionTorqueResists() {
        func spin(frictionTorque: CGFloat) -> CGFloat {
            let animator = DynamicAnimator()
            let base = square(40, at: CGPoint(x: 0, y: 0))
            let arm = square(40, at: CGPoint(x: 50, y: 0))
            let anchored = DynamicItemBehavior(items: [base])
            anchored.isAnchored = true
            let pin = AttachmentBehavior.pinAttachment(with: base, attachedTo: arm, attachmentAnchor: CGPoint(x: 25, y: 0))
            pin.frictionTorque = frictionTorque
            let probe = DynamicItemBehavior(items: [arm])
            animator.addBehavior(anchored)
            animator.addBehavior(pin)
            animator.addBehavior(probe)
            probe.addAngularVelocity(2, for: arm)
            animator.advance(by: 0.5)
            // The pin point stays put: the arm's center stays 25 pt from it.
            #expect(abs(hypot(arm.center.x - 25, arm.center.y) - 25) < 1)
            return probe.angularVelocity(for: arm)
        }
        let free = spin(frictionTorque: 0)
        let braked = spin(frictionTorque: 0.5)
        // Angular momentum about the pin is kept: I_c·2 = (I_c + m·25²)·ω, I_c = m(40² + 40²)/12.
        let ic = (40.0 * 40 + 40 * 40) / 12
        #expect(abs(Double(free) - 2 * ic / (ic + 625)) < 0.02)
        #expect(abs(braked) < 0.05)
    }

    @Test func pinRangeLimitsTheAngle() {
        let animator = DynamicAnimator()
        let base = square(40, at: CGPoint(x: 0, y: 0))
        let arm = square(40, at: CGPoint(x: 50, y: 0))
        let anchored = DynamicItemBehavior(items: [base])
        anchored.isAnchored = true
        let pin = AttachmentBehavior.pinAttachment(with: base, attachedTo: arm, attachmentAnchor: CGPoint(x: 25, y: 0))
        pin.attachmentRange = -0.3...0.3
        animator.addBehavior(anchored)
        animator.addBehavior(pin)
        animator.addBehavior(GravityBehavior(items: [arm]))
        animator.advance(by: 2)
        #expect(arm.angle > 0.25 && arm.angle < 0.35)
    }

    @Test func slidingAttachmentMovesOnlyAlongItsAxisWithoutTurning() {
        let animator = validatingAnimator()
        let item = square(40, at: CGPoint(x: 100, y: 100))
        let slide = AttachmentBehavior.slidingAttachment(with: item, attachmentAnchor: CGPoint(x: 100, y: 100),
                                                         axisOfTranslation: CGVector(dx: 1, dy: 1))
        slide.attachmentRange = -1000...50
        let push = PushBehavior(items: [item], mode: .continuous)
        push.pushDirection = CGVector(dx: 3, dy: 0)
        push.setTargetOffsetFromCenter(CGPoint(x: 0, y: 20), for: item)
        animator.addBehavior(slide)
        animator.addBehavior(push)
        animator.advance(by: 2)
        // On the line y − 100 = x − 100, unturned, stopped by the upper limit at 50 pt of travel.
        #expect(abs((item.center.y - 100) - (item.center.x - 100)) < 0.5)
        #expect(abs(item.angle) < 0.01)
        #expect(abs(hypot(item.center.x - 100, item.center.y - 100) - 50) < 1)
        #expect(animator.world.validationErrors.isEmpty)
    }

    @Test func fixedAttachmentWeldsTwoItems() {
        let animator = DynamicAnimator()
        let a = square(40, at: CGPoint(x: 0, y: 0))
        let b = square(40, at: CGPoint(x: 40, y: 0))
        let weld = AttachmentBehavior.fixedAttachment(with: a, attachedTo: b, attachmentAnchor: CGPoint(x: 20, y: 0))
        let push = PushBehavior(items: [b], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0, dy: 1)
        animator.addBehavior(weld)
        animator.addBehavior(push)
        animator.advance(by: 1)
        #expect(abs(hypot(a.center.x - b.center.x, a.center.y - b.center.y) - 40) < 0.5)
        #expect(abs(a.angle - b.angle) < 0.01)
        #expect(b.angle != 0)
    }

    @Test func badInputIsReportedNotFatal() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let attachment = AttachmentBehavior(item: item, attachedToAnchor: CGPoint(x: CGFloat.nan, y: 0))
        attachment.length = -1
        attachment.frequency = .infinity
        attachment.damping = -2
        let selfAttached = AttachmentBehavior(item: item, attachedTo: item)
        let slide = AttachmentBehavior.slidingAttachment(with: item, attachmentAnchor: .zero, axisOfTranslation: .zero)
        animator.addBehavior(attachment)
        animator.addBehavior(selfAttached)
        animator.addBehavior(slide)
        #expect(animator.diagnostics.count == 6)
        #expect(attachment.frequency == 0 && attachment.damping == 0)
        animator.advance(by: 1)
        #expect(item.center.x.isFinite && item.center.y.isFinite)
    }
}
