// Port of victorchee/DynamicAnimator, DynamicAnimator/AttachmentViewController.swift (2015), a Swift
// version of Apple's UIKit Dynamics Catalog "Attachments": a view hangs by a corner point
// (`UIOffset(horizontal: -22, vertical: -22)`) from an anchor 100 pt above its center, on a soft
// attachment (frequency 0.5 Hz, damping 0.5, friction torque 0.5); panning moves the anchor and the
// view follows.
//
// Edits beyond deleting `UI`: storyboard views → `View(frame:)`; the pan recogniser → the test calls
// `pan(to:)`; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: attachments (victorchee/DynamicAnimator)")
struct AttachmentPort {
    final class AttachmentViewController {
        let attachmentView = View(frame: CGRect(x: 177.5, y: 190, width: 20, height: 20))
        let itemView = View(frame: CGRect(x: 137.5, y: 250, width: 100, height: 100))
        var animator: DynamicAnimator!
        var attachmentBehavior: AttachmentBehavior!

        func viewDidAppear(_ animated: Bool) {
            animator = DynamicAnimator(referenceBounds: phoneBounds)

            let collisionBehavior = CollisionBehavior(items: [itemView])
            collisionBehavior.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collisionBehavior)

            let anchor = CGPoint(x: itemView.center.x, y: itemView.center.y - 100)
            let offset = Offset(horizontal: -22, vertical: -22)
            attachmentBehavior = AttachmentBehavior(item: itemView, offsetFromCenter: offset, attachedToAnchor: anchor)
            attachmentBehavior.damping = 0.5
            attachmentBehavior.frequency = 0.5
            attachmentBehavior.frictionTorque = 0.5
            animator.addBehavior(attachmentBehavior)
        }

        func pan(to location: CGPoint) {
            attachmentBehavior.anchorPoint = location
            attachmentView.center = attachmentBehavior.anchorPoint
        }
    }

    /// The attachment point (the view's corner offset, turned with the view), in points.
    func attachmentPoint(of view: View) -> CGPoint {
        let a = rotation(of: view)
        return CGPoint(x: view.center.x - 22 * cos(a) + 22 * sin(a), y: view.center.y - 22 * sin(a) - 22 * cos(a))
    }

    @Test func theViewFollowsTheAnchorAndSettlesAtTheAttachmentsLength() {
        let vc = AttachmentViewController()
        vc.viewDidAppear(true)
        // The length is the distance when attached: from (−22, −22) off the center to 100 pt above it.
        let length = hypot(22.0, 100.0 - 22)
        #expect(abs(vc.attachmentBehavior.length - length) < 1e-9)
        vc.pan(to: CGPoint(x: 100, y: 150))
        #expect(vc.attachmentView.center == CGPoint(x: 100, y: 150))
        // A 0.5 Hz spring with damping ratio 0.5 decays as e^(−ζωt): after 20 s, e^(−31) of its
        // start. No gravity: the corner ends `length` from the new anchor.
        vc.animator.advance(by: 20)
        let p = attachmentPoint(of: vc.itemView)
        #expect(abs(hypot(p.x - 100, p.y - 150) - length) < 1)
        // It moved toward the anchor: its center is now within reach of it.
        #expect(hypot(vc.itemView.center.x - 100, vc.itemView.center.y - 150) < length + hypot(22.0, 22.0) + 1)
    }
}
