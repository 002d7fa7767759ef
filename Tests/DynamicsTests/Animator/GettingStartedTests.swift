import Foundation
import Testing

import Dynamics

// The code of the DocC articles, run as written: if an article's promise breaks, this fails.

private final class Listener: CollisionBehaviorDelegate, DynamicAnimatorDelegate {
    var log: [String] = []

    func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                           withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) {
        // The reference-bounds boundary has no identifier.
        log.append("landed at y = \(Int(p.y.rounded())) on \(identifier.map { "\($0)" } ?? "the reference bounds")")
    }

    func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
        log.append("at rest after \(animator.elapsedTime) s")
    }
}

@Suite("Articles")
struct GettingStartedTests {
    @Test func gettingStarted() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let box = BasicDynamicItem(center: CGPoint(x: 160, y: 100),
                                   size: CGSize(width: 60, height: 60), name: "box")
        let listener = Listener()
        animator.delegate = listener
        let gravity = GravityBehavior(items: [box])
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = listener
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.advance(by: 3)
        #expect(abs(box.center.x - 160) < 0.5 && abs(box.center.y - 450) < 0.5)
        #expect(listener.log.count == 2)
        #expect(listener.log.first == "landed at y = 480 on the reference bounds")
        #expect(listener.log.last?.hasPrefix("at rest after 1.3") == true)
        #expect(!animator.isRunning)
    }

    @Test func landingPage() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let box = BasicDynamicItem(center: CGPoint(x: 160, y: 40), size: CGSize(width: 40, height: 40))
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [box]))
        animator.addBehavior(collision)
        animator.advance(by: 2)
        #expect(abs(box.center.y - 460) < 0.5 && abs(box.center.x - 160) < 0.5)
    }

    @Test func compositePendulumPeriodQuotedInTheArticle() {
        #expect(abs(2 * Double.pi * (100.0 / 1000).squareRoot() - 1.99) < 0.005)
    }
}
