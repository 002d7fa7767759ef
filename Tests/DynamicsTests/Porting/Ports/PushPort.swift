// Port of victorchee/DynamicAnimator, DynamicAnimator/PushViewController.swift (2015), a Swift version
// of Apple's UIKit Dynamics Catalog "Instantaneous Push" / "Continuous Push": a tap pushes the view
// toward the tap, with magnitude (distance from the screen's center) / 100, at most 1; a segmented
// control picks the mode, replacing the push behaviour.
//
// Edits beyond deleting `UI`: the storyboard view → `View(frame:)`; the segmented control and the tap
// recogniser → the test calls `changeMode(instantaneous:)` and `tap(at:)`; the layout guide and the
// control's height → 64 and 44 pt; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: push (victorchee/DynamicAnimator)")
struct PushPort {
    final class PushViewController {
        let itemView = View(frame: CGRect(x: 137.5, y: 283.5, width: 100, height: 100))   // mass 1
        let bounds = phoneBounds
        var animator: DynamicAnimator!
        var pushBehavior: PushBehavior?

        func viewDidAppear(_ animated: Bool) {
            animator = DynamicAnimator(referenceBounds: bounds)

            let collisionBehavior = CollisionBehavior(items: [itemView])
            collisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 64, left: 0, bottom: 44, right: 0))
            animator.addBehavior(collisionBehavior)
        }

        func changeMode(instantaneous: Bool) {
            let mode = instantaneous ? PushBehavior.Mode.instantaneous : .continuous
            if let push = pushBehavior {
                push.active = false
                animator.removeBehavior(push)
            }
            pushBehavior = PushBehavior(items: [itemView], mode: mode)
            pushBehavior?.angle = 0
            pushBehavior?.magnitude = 0
            animator.addBehavior(pushBehavior!)
        }

        func tap(at point: CGPoint) {
            guard let push = pushBehavior else {
                return
            }
            let center = CGPoint(x: bounds.midX, y: bounds.midY)

            var distance = sqrt(pow(point.x - center.x, 2) + pow(point.y - center.y, 2))
            let angle = atan2(point.y - center.y, point.x - center.x)
            distance = min(distance, 100)

            push.magnitude = distance / 100
            push.angle = angle
            if push.mode == .instantaneous {
                push.active = true
            }
        }
    }

    @Test func anInstantaneousTapSetsTheViewMovingOnce() {
        let vc = PushViewController()
        vc.viewDidAppear(true)
        vc.changeMode(instantaneous: true)
        // A tap 60 pt right and 80 pt below the center: distance 100, magnitude 1, so an impulse of
        // 100 mass·pt/s along (0.6, 0.8) on a mass-1 view: 100 pt/s, once.
        vc.tap(at: CGPoint(x: 187.5 + 60, y: 333.5 + 80))
        let start = vc.itemView.center
        vc.animator.advance(by: 0.5)
        #expect(vc.pushBehavior?.active == false)
        let moved = CGPoint(x: vc.itemView.center.x - start.x, y: vc.itemView.center.y - start.y)
        // No gravity, no resistance: 50 pt in 0.5 s, along the push.
        #expect(abs(moved.x - 30) < 0.5 && abs(moved.y - 40) < 0.5)
    }

    @Test func aContinuousPushAcceleratesTheView() {
        let vc = PushViewController()
        vc.viewDidAppear(true)
        vc.changeMode(instantaneous: false)
        vc.tap(at: CGPoint(x: 187.5 - 50, y: 333.5))        // magnitude 0.5, toward −x
        let start = vc.itemView.center
        vc.animator.advance(by: 1)
        // 0.5 × 100 pt/s² on a mass-1 view: ½·a·t² = 25 pt in 1 s, within one step's travel.
        #expect(abs(start.x - vc.itemView.center.x - 25) < 50 * 1 / 60)
        #expect(abs(vc.itemView.center.y - start.y) < 1e-6)
        // Switching mode removes the old push: the view keeps its speed (50 pt/s after 1 s) but
        // stops accelerating, so it drifts 25 pt in the next 0.5 s.
        vc.changeMode(instantaneous: true)
        #expect(vc.animator.behaviors.count == 2)
        let before = vc.itemView.center.x
        vc.animator.advance(by: 0.5)
        #expect(abs(before - vc.itemView.center.x - 25) < 50 / 60)
    }
}
