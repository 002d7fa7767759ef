import Foundation
import Testing

import Dynamics

/// UIKit Dynamics Catalog, "Pendulum": a composite behaviour made of gravity and an attachment.
final class PendulumBehavior: DynamicBehavior {
    let attachment: AttachmentBehavior
    let gravity: GravityBehavior

    init(weight: any DynamicItem, suspendedFrom point: CGPoint) {
        gravity = GravityBehavior(items: [weight])
        attachment = AttachmentBehavior(item: weight, attachedToAnchor: point)
        super.init()
        addChildBehavior(gravity)
        addChildBehavior(attachment)
    }
}

/// Records willMove(to:) calls.
final class WatchingBehavior: DynamicBehavior {
    var moves: [String] = []
    override func willMove(to animator: DynamicAnimator?) {
        moves.append(animator == nil ? "leave(had \(dynamicAnimator == nil ? "none" : "one"))" : "join")
    }
}

@Suite("DynamicBehavior")
struct DynamicBehaviorTests {
    @Test func catalogPendulumDemoSwingsWithTheRightPeriod() {
        let animator = validatingAnimator()
        let anchor = CGPoint(x: 160, y: 50)
        let length = 300.0, theta0 = 0.08
        let weight = square(30, at: CGPoint(x: 160 + length * sin(theta0), y: 50 + length * cos(theta0)))
        let pendulum = PendulumBehavior(weight: weight, suspendedFrom: anchor)
        animator.addBehavior(pendulum)
        #expect(animator.behaviors.count == 1)
        #expect(pendulum.childBehaviors.count == 2)
        #expect(pendulum.gravity.dynamicAnimator === animator && pendulum.attachment.dynamicAnimator === animator)
        var xs: [Double] = []
        run(animator, steps: 60 * 12) { _ in xs.append(Double(weight.center.x - anchor.x)) }
        let period = meanPeriod(upwardCrossings(xs, dt: 1.0 / 60))
        let expected = 2 * Double.pi * (length / 1000).squareRoot()
        #expect(abs(period - expected) / expected < 0.02)
        #expect(validationErrors(of: animator).isEmpty)
    }

    @Test func willMoveIsCalledForTheWholeSubtree() {
        let animator = DynamicAnimator()
        let root = WatchingBehavior(), child = WatchingBehavior(), late = WatchingBehavior()
        root.addChildBehavior(child)
        animator.addBehavior(root)
        #expect(root.moves == ["join"] && child.moves == ["join"])
        #expect(child.dynamicAnimator === animator)
        child.addChildBehavior(late)
        #expect(late.moves == ["join"] && late.dynamicAnimator === animator)
        root.removeChildBehavior(child)
        #expect(child.moves == ["join", "leave(had one)"] && late.moves == ["join", "leave(had one)"])
        #expect(child.dynamicAnimator == nil && late.dynamicAnimator == nil)
        animator.removeBehavior(root)
        #expect(root.moves == ["join", "leave(had one)"])
        #expect(root.dynamicAnimator == nil)
    }

    @Test func treesRefuseCyclesAndSecondParents() {
        let a = DynamicBehavior(), b = DynamicBehavior(), c = DynamicBehavior()
        a.addChildBehavior(b)
        b.addChildBehavior(c)
        c.addChildBehavior(a)      // a cycle
        a.addChildBehavior(a)      // itself
        DynamicBehavior().addChildBehavior(c)   // a second parent
        a.removeChildBehavior(c)   // not a direct child
        #expect(a.childBehaviors.count == 1 && b.childBehaviors.count == 1 && c.childBehaviors.isEmpty)
        let animator = DynamicAnimator()
        animator.addBehavior(b)    // has a parent
        animator.addBehavior(a)
        // c's and a's own problems arrive when they join; b's refusal is reported at once.
        #expect(animator.diagnostics.count == 4)
    }

    @Test func itemsJoinWithTheirFirstBehaviorAndLeaveWithTheirLast() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let gravity = GravityBehavior(items: [item])
        let collision = CollisionBehavior(items: [item])
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        #expect(animator.items(in: CGRect(x: -10, y: -10, width: 20, height: 20)).count == 1)
        animator.removeBehavior(gravity)
        #expect(animator.items(in: CGRect(x: -10, y: -10, width: 20, height: 20)).count == 1)
        collision.removeItem(item)
        #expect(animator.items(in: CGRect(x: -10, y: -10, width: 20, height: 20)).isEmpty)
        collision.addItem(item)
        #expect(animator.items(in: CGRect(x: -10, y: -10, width: 20, height: 20)).count == 1)
        animator.removeAllBehaviors()
        #expect(animator.items(in: CGRect(x: -10, y: -10, width: 20, height: 20)).isEmpty)
        #expect(animator.behaviors.isEmpty)
    }

    @Test func actionsRunAfterEveryStepInDepthFirstOrder() {
        let animator = DynamicAnimator()
        var log: [String] = []
        let root = DynamicBehavior(), child = DynamicBehavior(), second = DynamicBehavior()
        root.addChildBehavior(child)
        root.action = { log.append("root") }
        child.action = { log.append("child") }
        second.action = { log.append("second") }
        animator.addBehavior(second)
        animator.addBehavior(root)
        animator.advance(by: 2.0 / 60)
        #expect(log == ["second", "root", "child", "second", "root", "child"])
    }
}
