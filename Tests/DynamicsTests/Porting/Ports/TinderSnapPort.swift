// Port of vigneshios/TinderTypeAnimation, TinderTypeAnimation/SwipeAnimationVC.swift (2018), a
// "Tinder type" card: a snap behaviour holds the card at the centre of the screen; a pan removes the
// snap, drags the card with the finger and, on release, adds the same snap back so the card springs
// home — an item leaving its only behaviour, moved by hand, and re-added.
//
// Edits beyond deleting `UI`: the storyboard card → `View(frame:)` with its frame from
// Main.storyboard (68, 198.5, 239 × 270 in a 375 × 667 view); the pan recogniser → the test calls
// `pannedView(state:translation:)` with the translation since the last call (the source resets it to
// zero each time); `isUserInteractionEnabled` dropped; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: Tinder type card snap (vigneshios/TinderTypeAnimation)")
struct TinderSnapPort {
    enum State { case began, changed, ended, failed, cancelled, possible }

    final class SwipeAnimationVC {
        let view = View(frame: phoneBounds)
        // Outlet
        let swipeView = View(frame: CGRect(x: 68, y: 198.5, width: 239, height: 270))

        // Variables
        private(set) var animator: DynamicAnimator!
        private(set) var snap: SnapBehavior!

        func viewDidLoad() {
            animator = DynamicAnimator(referenceView: view)
            snap = SnapBehavior(item: swipeView, snapTo: view.center)
            animator.addBehavior(snap)
        }

        func pannedView(state: State, translation: CGPoint = .zero) {
            switch state {

            case .began:
                animator.removeBehavior(snap)
            case .changed:
                swipeView.center = CGPoint(x: swipeView.center.x + translation.x , y: swipeView.center.y + translation.y)
            case .ended, .failed, .cancelled:
                animator.addBehavior(snap)
            case .possible:
                break
            }
        }
    }

    static let home = CGPoint(x: 187.5, y: 333.5)      // view.center: the card starts there

    @Test func aCardAlreadyAtItsSnapPointRestsThere() throws {
        let vc = SwipeAnimationVC()
        vc.viewDidLoad()
        // Nothing moves it: it stays put to the last bit and the animator pauses (measured: 0.5 s,
        // the time items must stay still before the animator pauses).
        let paused = try #require(runUntil(vc.animator, seconds: 2) { !vc.animator.isRunning })
        #expect(paused <= 0.5 + 1e-9)
        #expect(vc.swipeView.center == Self.home)
        #expect(rotation(of: vc.swipeView) == 0)
    }

    @Test func aDraggedCardSpringsHomeFromWhereItWasDroppedAndPauses() throws {
        let vc = SwipeAnimationVC()
        vc.viewDidLoad()
        vc.animator.step()
        // A drag of ten frames, 12 pt right and 8 pt down each: the card has no behaviour, so it
        // goes exactly where the finger puts it.
        vc.pannedView(state: .began)
        for _ in 0..<10 {
            vc.pannedView(state: .changed, translation: CGPoint(x: 12, y: 8))
            vc.animator.step()
        }
        #expect(vc.swipeView.center == CGPoint(x: 307.5, y: 413.5))
        // Released: the same snap comes back and starts from the dropped spot, not from home.
        vc.pannedView(state: .ended)
        vc.animator.step()
        let c = vc.swipeView.center
        #expect(c.x < 307.5 && c.x > 307.5 - 20 && c.y < 413.5)
        // Heading home along the line it was dragged on (12:8).
        #expect(abs((307.5 - c.x) * 8 - (413.5 - c.y) * 12) < 0.5)
        var overshoot: CGFloat = 0
        let paused = try #require(runUntil(vc.animator, seconds: 5) {
            overshoot = max(overshoot, Self.home.x - vc.swipeView.center.x)
            return !vc.animator.isRunning
        })
        // Measured: pauses 0.82 s after the release, overshooting home by 6.6 pt (UIKit's snap
        // at damping 0.5 overshoots a little and settles in well under a second or two).
        #expect(paused < 1.5)
        #expect(overshoot > 0 && overshoot < 20)
        #expect(hypot(vc.swipeView.center.x - Self.home.x, vc.swipeView.center.y - Self.home.y) < 0.5)
        #expect(abs(rotation(of: vc.swipeView)) < 0.01)
        #expect(vc.animator.diagnostics.isEmpty)
    }

    @Test func aFlickInsideOneFrameStartsFromTheFlickedSpot() throws {
        // Issue 25.4: began, changed and ended before the next step — the snap leaves and comes back
        // in one frame, with the card moved 100 pt left in between. The next step must start from
        // x = 87.5, not resurrect the resting card at home.
        let vc = SwipeAnimationVC()
        vc.viewDidLoad()
        _ = try #require(runUntil(vc.animator, seconds: 2) { !vc.animator.isRunning })
        vc.pannedView(state: .began)
        vc.pannedView(state: .changed, translation: CGPoint(x: -100, y: 0))
        vc.pannedView(state: .ended)
        vc.animator.step()
        #expect(vc.swipeView.center.x > 87.5 && vc.swipeView.center.x < 87.5 + 20)
        #expect(vc.swipeView.center.y == Self.home.y)
        let paused = try #require(runUntil(vc.animator, seconds: 5) { !vc.animator.isRunning })
        #expect(paused < 1.5)                        // measured 0.80 s
        #expect(hypot(vc.swipeView.center.x - Self.home.x, vc.swipeView.center.y - Self.home.y) < 0.5)
        #expect(vc.animator.diagnostics.isEmpty)
    }
}
