import Foundation
import Testing

@testable import Dynamics

/// Issue 29 §5: a boundary named by a NaN, and the memory of diagnostics reported once.
@Suite("Boundary identifiers and reported-once memory")
struct IdentifierAndMemoryTests {
    /// A NaN identifier is not equal to itself: the boundary could never be removed, and the
    /// animator's own snapshot was refused as naming a boundary that is not there. It is now
    /// refused with a diagnostic, in every spelling, and the snapshot restores.
    @Test(arguments: ["Double", "Float", "CGFloat", "NSNumber", "NSNumber of a Float"])
    func aNaNIdentifierIsRefused(spelling: String) throws {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 200, height: 200))
        let ball = BasicDynamicItem(center: CGPoint(x: 100, y: 50), size: CGSize(width: 20, height: 20))
        let collision = CollisionBehavior(items: [ball])
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [ball]))
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 150))
        path.addLine(to: CGPoint(x: 200, y: 150))
        switch spelling {
        case "Double": collision.addBoundary(withIdentifier: AnyHashable(Double.nan), for: path)
        case "Float": collision.addBoundary(withIdentifier: AnyHashable(Float.nan), from: .zero, to: CGPoint(x: 100, y: 0))
        case "CGFloat": collision.addBoundary(withIdentifier: AnyHashable(CGFloat.nan), for: path)
        case "NSNumber": collision.addBoundary(withIdentifier: NSNumber(value: Double.nan) as any NSCopying, for: path)
        default: collision.addBoundary(withIdentifier: NSNumber(value: Float.nan) as any NSCopying, from: .zero, to: CGPoint(x: 1, y: 1))
        }
        #expect(collision.boundaryIdentifiers.isEmpty, "\(spelling)")
        #expect(animator.diagnostics.contains { d in
            if case .unusableBoundary = d.kind { d.message.contains("not equal to itself (a NaN)") } else { false }
        }, "\(spelling)")
        // The boundary of a good name beside it works, and the animator's snapshot restores.
        collision.addBoundary(withIdentifier: "floor", for: path)
        for _ in 0 ..< 30 { animator.step() }
        let snapshot = animator.snapshot()
        for _ in 0 ..< 10 { animator.step() }
        try animator.restore(snapshot)
        #expect(collision.boundaryIdentifiers == ["floor"])
    }

    /// The set that keeps structural diagnostics from repeating held every message for ever: a
    /// message names its item, so 100 000 short-lived named items kept 18 MB. It keeps at most
    /// 1 024, forgetting the oldest; a message still repeats only after 1 024 others.
    @Test func reportedOnceIsBounded() {
        let animator = DynamicAnimator()
        for k in 0 ..< 20_000 {
            animator.reportOnce(.other, "A non-finite force on the item \"item \(k)\" was ignored.")
        }
        #expect(animator.reportedOnce.count == DynamicAnimator.reportedOnceLimit)
        #expect(animator.reportedOnceOrder.count - animator.reportedOnceStart == DynamicAnimator.reportedOnceLimit)
        #expect(animator.reportedOnceOrder.count <= 2 * DynamicAnimator.reportedOnceLimit)
        // A recent one is still silenced; the oldest is reported again.
        let count = animator.diagnostics.count
        animator.reportOnce(.other, "A non-finite force on the item \"item 19999\" was ignored.")
        #expect(animator.diagnostics.count == count)
        animator.reportOnce(.other, "A non-finite force on the item \"item 0\" was ignored.")
        #expect(animator.diagnostics.last?.message == "A non-finite force on the item \"item 0\" was ignored.")
    }
}
