// Port of pietbinon/Dynamics, Dynamics/ViewController.swift (2017): the classic first UIKit
// Dynamics demo — a 100 pt square falls under gravity onto a red barrier, a boundary named
// `"barrier" as NSCopying` made from the barrier view's frame; the square lands on the barrier's
// end, tips off it and comes to rest on the bottom of the screen.
//
// Edits beyond deleting `UI`: `UIView(frame:)` → `View(frame:)`; the reference view → its bounds;
// `view.addSubview` and colours dropped; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: square and barrier (pietbinon/Dynamics)")
struct SquareAndBarrierPort {
    final class ViewController {
        var animator: DynamicAnimator!
        var gravity: GravityBehavior!
        var collision: CollisionBehavior!
        let square = View(frame: CGRect(x: 100, y: 100, width: 100, height: 100))
        let barrier = View(frame: CGRect(x: 0, y: 300, width: 130, height: 20))

        func viewDidLoad() {
            animator = DynamicAnimator(referenceBounds: phoneBounds)
            gravity = GravityBehavior(items: [square])
            animator.addBehavior(gravity)

            collision = CollisionBehavior(items: [square])
            // Add a boundary that has the same frame as the barrier
            collision.addBoundary(withIdentifier: "barrier" as NSCopying, for: BezierPath(rect: barrier.frame))
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(collision)
        }
    }

    @Test func theSquareFallsTipsOffTheBarrierAndRestsOnTheFloor() throws {
        let vc = ViewController()
        vc.viewDidLoad()
        // Free fall until its bottom edge (y = 200) meets the barrier's top (y = 300): 100 pt in
        // √(2·100/1000) = 0.447 s. At 0.4 s it has fallen ½·g·t² = 80 pt, within a step's travel.
        vc.animator.advance(by: 0.4)
        #expect(abs(vc.square.center.y - 230) < 1000 * 0.4 / 60)
        #expect(rotation(of: vc.square) == 0)

        // Its center (x = 150) overhangs the barrier's end (x = 130): it tips clockwise off it.
        var turned: CGFloat = 0
        let rested = runUntil(vc.animator, seconds: 10) {
            turned = max(turned, abs(rotation(of: vc.square)))
            return !vc.animator.isRunning
        }
        #expect(rested != nil)
        #expect(turned > 0.3)
        // At rest on the floor, flat on a side, right of the barrier.
        #expect(abs(vc.square.center.y - (667 - 50)) < 0.5)
        #expect(isQuarterTurn(rotation(of: vc.square)))
        #expect(vc.square.center.x - 50 > 130 - 1)
        #expect(vc.collision.boundary(withIdentifier: "barrier")?.bounds == vc.barrier.frame)
    }
}
