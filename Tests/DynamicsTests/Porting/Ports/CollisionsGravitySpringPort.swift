// Port of Apple's UIKit Dynamics Catalog, "Collisions + Gravity + Spring"
// (APLCollisionsGravitySpringViewController), as Seyed Samad Gholamzadeh's DynamicsCatalog_Swift
// writes it in Swift (2018): a square hangs from an anchor 110 pt above its centre on a spring of
// frequency 1 Hz and damping 0.1, under gravity, inside the view's bounds.
//
// Edits beyond deleting `UI`: the storyboard's `UIImageView`s → `View`s of the catalog's sizes
// (the square is 100 × 100 pt in a 320 × 568 pt view); the decoration view that draws the spring
// and the image tints are left out; the display link → `step()`.
import Dynamics
import Foundation
import Testing

@Suite("Port: Apple's Dynamics Catalog, Collisions + Gravity + Spring")
struct CollisionsGravitySpringPort {
    final class APLCollisionsGravitySpringViewController {
        let view = View(frame: CGRect(x: 0, y: 0, width: 320, height: 568))
        let square1 = View(frame: CGRect(x: 110, y: 200, width: 100, height: 100))
        let attachmentView = View(frame: CGRect(x: 0, y: 0, width: 20, height: 20))
        var animator: DynamicAnimator!
        var attachmentBehavior: AttachmentBehavior!

        func viewDidLoad() {
            let animator = DynamicAnimator(referenceView: view)
            let gravityBehavior = GravityBehavior(items: [self.square1])
            let collisionBehavior = CollisionBehavior(items: [self.square1])

            let anchorPoint = CGPoint(x: self.square1.center.x, y: self.square1.center.y - 110)

            let attachmentBehavior = AttachmentBehavior(item: self.square1, attachedToAnchor: anchorPoint)

            collisionBehavior.translatesReferenceBoundsIntoBoundary = true

            // These parameters set the attachment in spring mode, instead of a rigid
            // connection.
            attachmentBehavior.frequency = 1.0
            attachmentBehavior.damping = 0.1
            self.attachmentBehavior = attachmentBehavior

            self.attachmentView.center = attachmentBehavior.anchorPoint

            animator.addBehavior(attachmentBehavior)
            animator.addBehavior(gravityBehavior)
            animator.addBehavior(collisionBehavior)

            self.animator = animator
        }

        func handleSpringAttachmentGesture(_ location: CGPoint) {
            self.attachmentBehavior.anchorPoint = location
            self.attachmentView.center = self.attachmentBehavior.anchorPoint
        }
    }

    /// The square's centre y every step for `seconds`.
    func trace(_ vc: APLCollisionsGravitySpringViewController, seconds: Double) -> [CGFloat] {
        (0..<Int(seconds * 60)).map { _ in vc.animator.step(); return vc.square1.center.y }
    }

    @Test func theSquareBobsAboutWhereGravityStretchesTheSpringAndSettles() {
        let vc = APLCollisionsGravitySpringViewController()
        vc.viewDidLoad()
        // At rest gravity stretches the spring by g/ω² = 1000/(2π)² = 25.3 pt; released at its
        // length, the square swings 25.3 pt each side of that, at f·√(1 − ζ²) = 0.995 Hz, and each
        // swing is e^{−2πζ/√(1−ζ²)} = 0.531 of the one before.
        let omega = 2 * Double.pi
        let stretch = 1000 / (omega * omega)
        let rest = 250 + stretch
        let ys = trace(vc, seconds: 4).map { Double($0) - rest }
        var lows: [Double] = []   // the highest points (y grows down): the swings' tops
        for k in 1..<(ys.count - 1) where ys[k] < 0 && ys[k] <= ys[k - 1] && ys[k] < ys[k + 1] { lows.append(-ys[k]) }
        #expect(lows.count >= 3)
        guard lows.count >= 3 else { return }
        let ratio = exp(-2 * .pi * 0.1 / (1 - 0.01).squareRoot())
        // the first top is the release point itself, one period in: 25.3·ratio
        #expect(abs(lows[0] / stretch - ratio) < 0.01)
        #expect(abs(lows[1] / lows[0] - ratio) < 0.01)
        // the square settles where the spring holds it, and stays inside the view
        _ = trace(vc, seconds: 20)
        #expect(abs(Double(vc.square1.center.y) - rest) < 0.5)
        #expect(abs(vc.square1.center.x - 160) < 0.5)
    }

    @Test func draggingTheAnchorPullsTheSquareAlong() {
        let vc = APLCollisionsGravitySpringViewController()
        vc.viewDidLoad()
        // Straight up: a sideways drag would set it swinging as a pendulum, which the spring's
        // damping (along the spring only, as in UIKit's Box2D) does not calm.
        vc.handleSpringAttachmentGesture(CGPoint(x: 160, y: 60))
        _ = trace(vc, seconds: 25)
        // it hangs below the new anchor: 110 pt of spring plus the 25.3 pt gravity stretches it
        let stretch = 1000 / (4 * CGFloat.pi * CGFloat.pi)
        #expect(abs(vc.square1.center.x - 160) < 0.5)
        #expect(abs(vc.square1.center.y - (60 + 110 + stretch)) < 0.5)
        #expect(vc.attachmentView.center == CGPoint(x: 160, y: 60))
    }
}
