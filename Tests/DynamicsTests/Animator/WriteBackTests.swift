import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// The write-back after each step: which items are written, how often, and what a setter that
/// changes the animator meanwhile does.
@Suite struct WriteBackTests {
    /// An item that counts the animator's writes and can run code inside its center setter.
    final class CountingItem: DynamicItem {
        var center: CGPoint { didSet { centerWrites += 1; onCenterWrite?(self) } }
        let bounds: CGRect
        var transform: CGAffineTransform = .identity { didSet { transformWrites += 1 } }
        var centerWrites = 0
        var transformWrites = 0
        var onCenterWrite: ((CountingItem) -> Void)?

        init(center: CGPoint, side: CGFloat = 20) {
            self.center = center
            bounds = CGRect(x: 0, y: 0, width: side, height: side)
        }
    }

    /// A falling item is written once a step, centre and transform, at the free-fall position
    /// (UIKit's gravity 1 is 1 000 pt/s²; the drop after n steps of 4 sub-steps is g t²/2 ×
    /// (1 + 1/4n) under sub-stepped symplectic Euler). Once it rests on the boundary and its
    /// body sleeps, steps stop writing it: a resting item costs the write-back nothing.
    @Test func fallingItemsAreWrittenEachStepAndRestingOnesNever() {
        let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let item = CountingItem(center: CGPoint(x: 200, y: 100))
        let gravity = GravityBehavior(items: [item])
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        let steps = 12
        run(animator, steps: steps)
        #expect(item.centerWrites == steps)
        #expect(item.transformWrites == steps)
        let t = Double(steps) / 60, n = Double(steps * 4)
        let expected = 0.5 * 1000 * t * t * (1 + 1 / n)
        #expect(abs((item.center.y - 100) - expected) < 1e-3 * expected, "drop \(item.center.y - 100), expected \(expected)")
        // to rest on the floor, and asleep
        var k = 0
        while animator.isRunning && k < 600 { animator.step(); k += 1 }
        #expect(!animator.isRunning, "still running after \(k) more steps")
        #expect(abs(item.center.y - 390) < 1, "rests at \(item.center.y)")
        let writes = item.centerWrites
        run(animator, steps: 30)
        #expect(item.centerWrites == writes)
        #expect(validationErrors(of: animator).isEmpty)
    }

    /// A setter that removes every behaviour from the animator, the first time the write-back
    /// calls it: the step's other moved items are still written from this step's positions (the
    /// write-back walks what the step moved, and holds every record until it ends), nothing
    /// crashes, and from the next step on nothing moves.
    @Test func aSetterThatEmptiesTheAnimatorMidWriteBack() {
        let animator = validatingAnimator()
        let items = (0..<8).map { CountingItem(center: CGPoint(x: 40 * Double($0), y: 0)) }
        let gravity = GravityBehavior(items: items)
        animator.addBehavior(gravity)
        run(animator, steps: 3)
        var fired = false
        for item in items {
            item.onCenterWrite = { _ in
                guard !fired else { return }
                fired = true
                animator.removeAllBehaviors()
            }
        }
        animator.step()
        #expect(fired)
        #expect(items.allSatisfy { $0.centerWrites == 4 }, "\(items.map(\.centerWrites))")
        let positions = items.map(\.center)
        run(animator, steps: 5)
        #expect(items.map(\.center) == positions)
        #expect(animator.behaviors.isEmpty)
        #expect(validationErrors(of: animator).isEmpty)
    }
}
