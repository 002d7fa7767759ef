// Port of victorchee/DynamicAnimator, DynamicAnimator/CollisionGravityViewController.swift (2015), a
// Swift version of Apple's UIKit Dynamics Catalog "Collisions + Gravity": a view falls inside the
// reference bounds inset by 44 pt on every side; the collision delegate greys the view while it
// touches a boundary and darkens it when the contact ends.
//
// Edits beyond deleting `UI`: the storyboard's view → `View(frame:)`; `UIColor.lightGray` →
// "lightGray"; `viewDidAppear` is called by the test; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: collisions + gravity (victorchee/DynamicAnimator)")
struct CollisionGravityPort {
    final class CollisionGravityViewController {
        let itemView = View(frame: CGRect(x: 137, y: 150, width: 100, height: 100))
        var animator: DynamicAnimator!
        var touches: [(identifier: NSCopying?, p: CGPoint)] = []

        func viewDidAppear(_ animated: Bool) {
            animator = DynamicAnimator(referenceBounds: phoneBounds)

            let gravityBeahvior = GravityBehavior(items: [itemView])
            animator.addBehavior(gravityBeahvior)

            let collisionBehavior = CollisionBehavior(items: [itemView])
            collisionBehavior.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 44, left: 44, bottom: 44, right: 44))
            collisionBehavior.collisionDelegate = self
            animator.addBehavior(collisionBehavior)
        }
    }

    @Test func theViewLandsOnTheInsetFloorAndTheDelegateHearsIt() throws {
        let vc = CollisionGravityViewController()
        vc.viewDidAppear(true)
        #expect(vc.itemView.backgroundColor == "white")
        // The bottom edge (y = 250) falls to the inset floor (y = 667 − 44 = 623): 373 pt, which
        // takes √(2·373/1000) = 0.864 s.
        let landed = try #require(runUntil(vc.animator, seconds: 2) { !vc.touches.isEmpty })
        #expect(abs(landed - (2 * 373.0 / 1000).squareRoot()) < 2.0 / 60)
        let touch = try #require(vc.touches.first)
        #expect(touch.identifier == nil)                  // the reference bounds have no identifier
        #expect(abs(touch.p.y - 623) < 0.5)
        #expect(vc.itemView.backgroundColor == "lightGray")
        runUntil(vc.animator, seconds: 5) { !vc.animator.isRunning }
        #expect(abs(vc.itemView.center.y - (623 - 50)) < 0.5)
        #expect(vc.itemView.backgroundColor == "lightGray") // still touching: no ended callback
    }
}

extension CollisionGravityPort.CollisionGravityViewController: CollisionBehaviorDelegate {
    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem, withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
        touches.append((identifier, p))
        guard let view = item as? View else {
            return
        }
        view.backgroundColor = "lightGray"
    }

    func collisionBehavior(_ behavior: CollisionBehavior, endedContactFor item: DynamicItem, withBoundaryIdentifier identifier: NSCopying?) {
        guard let view = item as? View else {
            return
        }
        view.backgroundColor = "darkGray"
    }
}
