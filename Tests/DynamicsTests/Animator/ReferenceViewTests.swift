import Foundation
import Testing

import Dynamics

/// `DynamicAnimator(referenceView:)` (issue 25, point 5): any object with `bounds`, held weakly,
/// its bounds read lazily at every step as UIKit reads them.
@Suite("DynamicAnimator(referenceView:)")
struct ReferenceViewTests {
    /// A view as an app defines one: a class of its own with bounds.
    final class CanvasView: DynamicReferenceView {
        var bounds: CGRect
        init(width: CGFloat, height: CGFloat) { bounds = CGRect(x: 0, y: 0, width: width, height: height) }
    }

    /// A 100 × 100 box dropped at `x` under gravity inside the view's bounds, written as UIKit
    /// code writes it (minus `UI`).
    final class DropViewController {
        let view: CanvasView
        let box: BasicDynamicItem
        var animator: DynamicAnimator!
        let recorder = AnimatorRecorder()

        init(view: CanvasView, x: CGFloat) {
            self.view = view
            box = BasicDynamicItem(frame: CGRect(x: x - 50, y: 50, width: 100, height: 100))
        }

        func viewDidLoad() {
            animator = DynamicAnimator(referenceView: view)
            animator.delegate = recorder
            let gravity = GravityBehavior(items: [box])
            let collision = CollisionBehavior(items: [box])
            collision.translatesReferenceBoundsIntoBoundary = true
            animator.addBehavior(gravity)
            animator.addBehavior(collision)
        }
    }

    /// Steps until the animator pauses (at most `seconds`); returns whether it did.
    @discardableResult
    func runUntilPaused(_ animator: DynamicAnimator, seconds: Double = 5) -> Bool {
        for _ in 0..<Int(seconds * 60) {
            animator.step()
            if !animator.isRunning { return true }
        }
        return false
    }

    /// The contact slop: a resting box sits up to 0.5 pt into what holds it (Box2D v3's
    /// `linearSlop`, 0.005 m at 100 pt/m).
    let slop: CGFloat = 0.5

    @Test func aPortedAnimatorWithAReferenceViewRestsTheBoxOnTheViewsFloor() {
        let controller = DropViewController(view: CanvasView(width: 320, height: 480), x: 160)
        controller.viewDidLoad()
        let animator = controller.animator!
        #expect(animator.referenceView === controller.view)
        #expect(animator.referenceView?.bounds == CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(runUntilPaused(animator))
        // Analytic rest: the floor at y = 480, the box's half-height 50 above it.
        #expect(controller.box.center.y >= 430 && controller.box.center.y <= 430 + slop)
        #expect(abs(controller.box.center.x - 160) < 1e-3)
        #expect(animator.diagnostics.isEmpty)
    }

    @Test func aTallerViewMovesTheFloorAndWakesThePausedAnimator() {
        // M3 of the charon measurements: a reference view resized from 400 to 600 pt high wakes the
        // paused animator and the item falls to the new floor.
        let controller = DropViewController(view: CanvasView(width: 320, height: 480), x: 160)
        controller.viewDidLoad()
        let animator = controller.animator!
        #expect(runUntilPaused(animator))
        controller.recorder.events.removeAll()
        controller.view.bounds.size.height = 680
        // referenceBounds reports the view's bounds at once; the boundary follows at the next step.
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 320, height: 680))
        animator.step()
        #expect(controller.recorder.events.first == "resume")
        #expect(animator.isRunning)
        #expect(runUntilPaused(animator))
        #expect(controller.box.center.y >= 630 && controller.box.center.y <= 630 + slop)
    }

    @Test func rotatingTheViewToPortraitRebuildsTheBoundary() {
        // Landscape 480 × 320: the box rests at 270; portrait 320 × 480: the floor drops to 480.
        let controller = DropViewController(view: CanvasView(width: 480, height: 320), x: 160)
        controller.viewDidLoad()
        let animator = controller.animator!
        #expect(runUntilPaused(animator))
        #expect(controller.box.center.y >= 270 && controller.box.center.y <= 270 + slop)
        controller.view.bounds = CGRect(x: 0, y: 0, width: 320, height: 480)
        #expect(runUntilPaused(animator))
        #expect(controller.box.center.y >= 430 && controller.box.center.y <= 430 + slop)
        #expect(abs(controller.box.center.x - 160) < 1e-3)
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 320, height: 480))
    }

    @Test func insetsStayWhenTheBoundsChange() {
        let view = CanvasView(width: 300, height: 400)
        let animator = DynamicAnimator(referenceView: view)
        let box = square(100, at: CGPoint(x: 150, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: EdgeInsets(top: 0, left: 0, bottom: 40, right: 0))
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        #expect(runUntilPaused(animator))
        #expect(box.center.y >= 310 && box.center.y <= 310 + slop)
        view.bounds.size.height = 600
        #expect(runUntilPaused(animator))
        #expect(box.center.y >= 510 && box.center.y <= 510 + slop)
        #expect(collision.referenceBoundsInsets.bottom == 40)
    }

    @Test func boundsAreReadWhenTheBoundaryIsBuiltNotWhenTheAnimatorIsMade() {
        // A view not laid out yet (zero bounds, as in viewDidLoad) gets its size before the first step.
        let view = CanvasView(width: 0, height: 0)
        let animator = DynamicAnimator(referenceView: view)
        let box = square(100, at: CGPoint(x: 160, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        view.bounds = CGRect(x: 0, y: 0, width: 320, height: 480)
        #expect(runUntilPaused(animator))
        #expect(box.center.y >= 430 && box.center.y <= 430 + slop)
        #expect(animator.diagnostics.isEmpty)
    }

    @Test func aBasicDynamicItemIsAReferenceViewAsAUIViewIs() {
        let view = BasicDynamicItem(frame: CGRect(x: 0, y: 0, width: 200, height: 300))
        let animator = DynamicAnimator(referenceView: view)
        #expect(animator.referenceView === view)
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 200, height: 300))
        view.frame = CGRect(x: 10, y: 10, width: 250, height: 350)   // a frame sets the bounds' size
        #expect(animator.referenceView?.bounds == CGRect(x: 0, y: 0, width: 250, height: 350))
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 250, height: 350))
    }

    @Test func theOtherInitialisersHaveNoReferenceView() {
        #expect(DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 10, height: 10)).referenceView == nil)
        #expect(DynamicAnimator().referenceView == nil)
    }

    @Test func aDeallocatedViewLeavesNoReferenceBoundaryAndSaysSoOnce() {
        let box = square(100, at: CGPoint(x: 160, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        var view: CanvasView? = CanvasView(width: 320, height: 480)
        weak let weakView = view
        let animator = DynamicAnimator(referenceView: view!)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        #expect(runUntilPaused(animator))
        #expect(box.center.y >= 430 && box.center.y <= 430 + slop)
        view = nil
        #expect(weakView == nil)
        #expect(animator.referenceView == nil)
        #expect(animator.referenceBounds == nil)
        // As in UIKit, no reference view means no reference-bounds boundary: the box falls.
        animator.advance(by: 2)
        #expect(box.center.y > 1000)
        #expect(animator.diagnostics.filter { $0.kind == .referenceBoundsUnusable }.count == 1)
        // Setting the flag again asks again, and is not repeated.
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.advance(by: 1)
        let notes = animator.diagnostics.filter { $0.kind == .referenceBoundsUnusable }
        #expect(notes.count == 1 && notes[0].message.contains("reference view has been deallocated"))
    }

    @Test func unusableBoundsKeepTheLastUsableOnesAndAreReported() {
        let view = CanvasView(width: 320, height: 480)
        let animator = DynamicAnimator(referenceView: view)
        let box = square(100, at: CGPoint(x: 160, y: 100))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [box]))
        #expect(runUntilPaused(animator))
        view.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 480)
        #expect(animator.referenceBounds == CGRect(x: 0, y: 0, width: 320, height: 480))
        for _ in 0..<60 { animator.step() }
        #expect(box.center.y >= 430 && box.center.y <= 430 + slop)
        #expect(animator.diagnostics.filter { $0.kind == .referenceBoundsUnusable }.count == 1)
    }
}
