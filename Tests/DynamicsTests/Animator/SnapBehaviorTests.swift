import Foundation
import Testing

import Dynamics

@Suite("SnapBehavior")
struct SnapBehaviorTests {
    /// Snaps a 60 pt item from (50, 50) to (250, 300) and returns the distances to the target
    /// after each step, and the overshoot: the largest distance travelled past the target along
    /// the approach direction.
    func snap(damping: CGFloat, seconds: Double = 2) -> (distances: [Double], overshoot: Double, item: BasicDynamicItem) {
        let animator = validatingAnimator()
        let item = square(60, at: CGPoint(x: 50, y: 50))
        let target = CGPoint(x: 250, y: 300)
        let snap = SnapBehavior(item: item, snapTo: target)
        snap.damping = damping
        animator.addBehavior(snap)
        let ux = 200.0 / hypot(200, 250), uy = 250.0 / hypot(200, 250)
        var distances: [Double] = []
        var overshoot = 0.0
        run(animator, steps: Int(seconds * 60)) { _ in
            let dx = Double(item.center.x - target.x), dy = Double(item.center.y - target.y)
            distances.append(hypot(dx, dy))
            overshoot = max(overshoot, dx * ux + dy * uy)
        }
        #expect(validationErrors(of: animator).isEmpty)
        return (distances, overshoot, item)
    }

    @Test func settlesWithinOnePointInTwoSeconds() {
        for damping in [0.0, 0.5, 1.0] as [CGFloat] {
            let result = snap(damping: damping)
            #expect(result.distances.last! < 1, "damping \(damping)")
            #expect(abs(result.item.angle) < 0.01)
        }
    }

    @Test func moreDampingOvershootsLess() {
        let low = snap(damping: 0).overshoot
        let mid = snap(damping: 0.5).overshoot
        let high = snap(damping: 1).overshoot
        #expect(low > mid)
        #expect(mid > high)
        // ζ = 0.2 overshoots about e^(−πζ/√(1−ζ²)) ≈ 53 % of 320 pt; ζ = 1 hardly at all.
        #expect(low > 100)
        #expect(high < 5)
    }

    @Test func defaultsAndBadValues() {
        let item = square(at: .zero)
        let snap = SnapBehavior(item: item, snapTo: CGPoint(x: 10, y: 20))
        #expect(snap.damping == 0.5)
        #expect(snap.snapPoint == CGPoint(x: 10, y: 20))
        snap.damping = 1.5
        snap.damping = .nan
        snap.snapPoint = CGPoint(x: CGFloat.infinity, y: 0)
        #expect(snap.damping == 0.5)
        #expect(snap.snapPoint == CGPoint(x: 10, y: 20))
        let animator = DynamicAnimator()
        animator.addBehavior(snap)
        #expect(animator.diagnostics.count == 3)
        let nowhere = SnapBehavior(item: square(at: CGPoint(x: 5, y: 5)), snapTo: CGPoint(x: CGFloat.nan, y: 0))
        #expect(nowhere.snapPoint == CGPoint(x: 5, y: 5))
    }

    @Test func movingTheSnapPointWakesAndMovesTheItem() {
        let animator = DynamicAnimator()
        let item = square(40, at: CGPoint(x: 0, y: 0))
        let snap = SnapBehavior(item: item, snapTo: CGPoint(x: 100, y: 0))
        animator.addBehavior(snap)
        animator.advance(by: 3)
        #expect(!animator.isRunning)
        #expect(abs(item.center.x - 100) < 1)
        snap.snapPoint = CGPoint(x: 100, y: 200)
        #expect(animator.isRunning)
        animator.advance(by: 2)
        #expect(abs(item.center.y - 200) < 1)
    }

    @Test func theItemTurnsBackToItsRotation() {
        let animator = DynamicAnimator()
        let item = square(60, at: CGPoint(x: 0, y: 0))
        let snap = SnapBehavior(item: item, snapTo: CGPoint(x: 200, y: 0))
        let spin = DynamicItemBehavior(items: [item])
        spin.addAngularVelocity(6, for: item)
        animator.addBehavior(snap)
        animator.addBehavior(spin)
        animator.advance(by: 2)
        #expect(abs(item.angle) < 0.01)
        #expect(abs(item.center.x - 200) < 1)
    }
}
