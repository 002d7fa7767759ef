// Port of victorchee/DynamicAnimator, DynamicAnimator/SnapViewController.swift (2015), a Swift version
// of Apple's UIKit Dynamics Catalog "Snap": each tap snaps the view to the tapped point, replacing the
// previous snap behaviour.
//
// Edits beyond deleting `UI`: the storyboard view → `View(frame:)`; the tap recogniser → the test
// calls `tap(at:)`; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: snap (victorchee/DynamicAnimator)")
struct SnapPort {
    final class SnapViewController {
        let itemView = View(frame: CGRect(x: 150, y: 100, width: 75, height: 75))
        var animator: DynamicAnimator!
        var snapBehavior: SnapBehavior?

        func viewDidLoad() {
            animator = DynamicAnimator(referenceBounds: phoneBounds)
        }

        func tap(at point: CGPoint) {
            if let snap = snapBehavior {
                animator.removeBehavior(snap)
            }

            snapBehavior = SnapBehavior(item: itemView, snapTo: point)
            animator.addBehavior(snapBehavior!)
        }
    }

    @Test func eachTapSnapsTheViewToThePointAndItSettles() throws {
        let vc = SnapViewController()
        vc.viewDidLoad()
        for point in [CGPoint(x: 100, y: 500), CGPoint(x: 300, y: 200)] {
            vc.tap(at: point)
            #expect(vc.animator.isRunning)
            let settled = try #require(runUntil(vc.animator, seconds: 5) { !vc.animator.isRunning })
            // UIKit's snap settles in well under a second or two at the default damping 0.5.
            #expect(settled < 2.5)
            #expect(hypot(vc.itemView.center.x - point.x, vc.itemView.center.y - point.y) < 0.5)
            #expect(abs(rotation(of: vc.itemView)) < 0.01)
            #expect(vc.animator.behaviors.count == 1)
        }
    }
}
