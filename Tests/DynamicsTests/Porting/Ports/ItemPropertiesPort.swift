// Port of victorchee/DynamicAnimator, DynamicAnimator/ItemViewController.swift (2015), a Swift version
// of Apple's UIKit Dynamics Catalog "Item Properties": two views fall side by side; the second has
// elasticity 0.5 and bounces, the first (elasticity 0) lands dead. "Redo" cancels each view's
// vertical velocity, puts it back where it started and tells the animator.
//
// Edits beyond deleting `UI`: storyboard views → `View(frame:)`; `viewDidAppear` and `redo` are
// called by the test; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: item properties (victorchee/DynamicAnimator)")
struct ItemPropertiesPort {
    final class ItemViewController {
        let itemView0 = View(frame: CGRect(x: 60, y: 100, width: 80, height: 80))
        var originalItemView0Center: CGPoint!
        let itemView1 = View(frame: CGRect(x: 235, y: 100, width: 80, height: 80))
        var originalItemView1Center: CGPoint!

        var animator: DynamicAnimator!
        var itemBehavior0: DynamicItemBehavior!
        var itemBehavior1: DynamicItemBehavior!

        func viewDidAppear(_ animated: Bool) {
            originalItemView0Center = itemView0.center
            originalItemView1Center = itemView1.center

            animator = DynamicAnimator(referenceBounds: phoneBounds)

            let gravityBehavior = GravityBehavior(items: [itemView0, itemView1])
            let collisionBehavior = CollisionBehavior(items: [itemView0, itemView1])
            collisionBehavior.translatesReferenceBoundsIntoBoundary = true

            itemBehavior0 = DynamicItemBehavior(items: [itemView0])
            itemBehavior1 = DynamicItemBehavior(items: [itemView1])
            itemBehavior1.elasticity = 0.5

            animator.addBehavior(itemBehavior0)
            animator.addBehavior(itemBehavior1)
            animator.addBehavior(gravityBehavior)
            animator.addBehavior(collisionBehavior)
        }

        func redo() {
            itemBehavior0.addLinearVelocity(CGPoint(x: 0, y: -1 * itemBehavior0.linearVelocity(for: itemView0).y), for: itemView0)
            itemView0.center = originalItemView0Center
            animator.updateItem(usingCurrentState: itemView0)

            itemBehavior1.addLinearVelocity(CGPoint(x: 0, y: -1 * itemBehavior1.linearVelocity(for: itemView1).y), for: itemView1)
            itemView1.center = originalItemView1Center
            animator.updateItem(usingCurrentState: itemView1)
        }
    }

    @Test func theElasticViewBouncesToAQuarterOfItsDrop() {
        let vc = ItemPropertiesViewControllerRun()
        // Both fall 667 − 180 = 487 pt. The first stays down; the second leaves the floor at half
        // its impact speed, so it rises e² = 1/4 of the drop: 122 pt.
        #expect(abs(vc.firstLanding0 - 627) < 0.5)
        #expect(vc.bounce0 < 1)
        #expect(abs(vc.bounce1 - 0.25 * 487) < 0.1 * 0.25 * 487)
    }

    @Test func redoPutsBothViewsBackAndTheyFallAgain() {
        let vc = ItemViewController()
        vc.viewDidAppear(true)
        vc.animator.advance(by: 0.5)                       // both mid-fall, moving down
        #expect(vc.itemBehavior0.linearVelocity(for: vc.itemView0).y > 400)
        vc.redo()
        // Back at the start with the vertical velocity cancelled: at rest, then falling afresh.
        #expect(vc.itemView0.center == CGPoint(x: 100, y: 140))
        #expect(abs(vc.itemBehavior0.linearVelocity(for: vc.itemView0).y) < 1e-3)
        #expect(abs(vc.itemBehavior1.linearVelocity(for: vc.itemView1).y) < 1e-3)
        vc.animator.advance(by: 0.3)
        // ½·g·t² = 45 pt in 0.3 s, within one step's travel.
        #expect(abs(vc.itemView0.center.y - 140 - 45) < 1000 * 0.3 / 60)
    }

    /// Runs the demo and measures where the views land and how high they bounce back.
    struct ItemPropertiesViewControllerRun {
        var firstLanding0: CGFloat = 0
        var bounce0: CGFloat = 0
        var bounce1: CGFloat = 0

        init() {
            let vc = ItemViewController()
            vc.viewDidAppear(true)
            let floorCenter: CGFloat = 667 - 40
            var landed0 = false, landed1 = false, apex1: CGFloat = .infinity, lowest0: CGFloat = .infinity
            for _ in 0..<(3 * 60) {
                vc.animator.step()
                let v1 = vc.itemBehavior1.linearVelocity(for: vc.itemView1).y
                if !landed0, vc.itemView0.center.y > floorCenter - 1 { landed0 = true; firstLanding0 = vc.itemView0.center.y }
                if landed0 { lowest0 = min(lowest0, vc.itemView0.center.y) }
                if !landed1, v1 < 0 { landed1 = true }
                if landed1 { apex1 = min(apex1, vc.itemView1.center.y) }
            }
            bounce0 = floorCenter - lowest0
            bounce1 = floorCenter - apex1
        }
    }
}
