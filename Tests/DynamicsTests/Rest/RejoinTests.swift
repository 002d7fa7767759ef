import Foundation
import Testing

import Dynamics

/// Issue 25, point 4: remove, move and re-add in one frame.
@Suite("Re-adding an item")
struct RejoinTests {
    /// A resting 100 pt box is taken out of every behaviour, its `center` set 150 pt to the right and
    /// 200 pt up, and it is added back before the next step. It used to go back to where it rested,
    /// for good, with no diagnostic (one frame in between worked). Now it joins from where it was
    /// put, at rest: it falls from there and lands straight below (free fall: it reaches the floor
    /// after √(2·200 pt / 1000 pt/s²) = 0.63 s), exactly as when a frame passes in between.
    @Test(arguments: [false, true])
    func removeMoveAndReAddInOneFrameTakesTheNewPosition(frameInBetween: Bool) throws {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let box = BasicDynamicItem(center: CGPoint(x: 80, y: 300), size: CGSize(width: 100, height: 100), name: "box")
        let gravity = GravityBehavior(items: [box])
        let collision = CollisionBehavior(items: [box])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.advance(by: 3)
        #expect(!animator.isRunning)
        #expect(abs(box.center.y - 430) < 0.1)

        gravity.removeItem(box)
        collision.removeItem(box)
        box.center = CGPoint(x: 230, y: 230)
        if frameInBetween { animator.step() }
        gravity.addItem(box)
        collision.addItem(box)
        animator.step()
        // One step of free fall from rest (sub-stepped: g·h²·n(n+1)/2 with h = 1/240 s, n = 4).
        let h = 1.0 / 240, fall = 1000 * h * h * 10
        #expect(abs(box.center.x - 230) < 1e-9)
        #expect(abs(box.center.y - (230 + fall)) < 1e-3, "at \(box.center)")
        var landed: TimeInterval?
        for _ in 0..<120 {
            animator.step()
            if landed == nil, box.center.y > 429 { landed = animator.elapsedTime }
        }
        #expect(abs(box.center.x - 230) < 0.1)
        #expect(abs(box.center.y - 430) < 0.1)
        #expect(animator.diagnostics.isEmpty)
    }

    /// Taken out of one behaviour while it stays in another, an item is still in the animator: a
    /// moving item keeps its velocity (nothing was set by hand).
    @Test func leavingOneOfTwoBehavioursKeepsTheVelocity() {
        let animator = DynamicAnimator()
        let box = BasicDynamicItem(center: .zero, size: CGSize(width: 10, height: 10))
        let push = DynamicItemBehavior(items: [box])
        push.addLinearVelocity(CGPoint(x: 120, y: 0), for: box)
        let gravity = GravityBehavior(items: [box])
        gravity.magnitude = 0
        animator.addBehavior(push)
        animator.addBehavior(gravity)
        animator.step()
        gravity.removeItem(box)
        animator.step()
        #expect(abs(push.linearVelocity(for: box).x - 120) < 1e-3)
        #expect(abs(box.center.x - 2 * 120.0 / 60) < 1e-3)
    }
}
