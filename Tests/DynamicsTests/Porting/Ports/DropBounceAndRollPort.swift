// Port of danwallacenz/Chapter-4-Animation, Chapter-4-Animations/DropBounceAndRollBehavior.m (2014),
// the "drop, bounce and roll" composite behaviour of Matt Neuburg's Programming iOS 7 (chapter 4),
// written out from the book: the behaviour builds its children in `willMoveToAnimator:` — gravity
// (whose action removes the behaviour once the view has left the screen), an instantaneous push
// of (2, 0) applied 200 pt above the view's center, a collision behaviour in boundaries mode with
// a floor named @"floor", and an item behaviour of elasticity 0.4 — and, as the collision delegate,
// gives the view an angular velocity of 30 the first time it touches the floor. The view drops,
// bounces, rolls off to the right and the behaviour takes itself away.
//
// Edits beyond deleting `UI` (and writing the Objective-C in Swift): the view → `View(frame:)`;
// `dynamicAnimator.referenceView.bounds` → `referenceView!.bounds` (Swift's optional); `NSLog` → a log array;
// `removeFromSuperview` dropped; the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: drop, bounce and roll (Programming iOS 7, danwallacenz/Chapter-4-Animation)")
struct DropBounceAndRollPort {
    final class DropBounceAndRollBehavior: DynamicBehavior, CollisionBehaviorDelegate {
        let view: View
        var log: [String] = []

        init(view: View) {
            self.view = view
            super.init()
        }

        override func willMove(to dynamicAnimator: DynamicAnimator?) {
            guard let dynamicAnimator else {
                return
            }
            let superBounds = dynamicAnimator.referenceView!.bounds
            // The gravity child.
            let gravity = GravityBehavior()
            gravity.action = { [weak self, unowned dynamicAnimator] in
                guard let sself = self else { return }
                let visibleItems = dynamicAnimator.items(in: superBounds)
                if !visibleItems.contains(where: { $0 === sself.view }) {
                    dynamicAnimator.removeBehavior(sself)
                    sself.log.append("done")
                }
            }
            addChildBehavior(gravity)
            gravity.addItem(view)

            // Give it a push to the right a bit.
            let push = PushBehavior(items: [view], mode: .instantaneous)
            push.pushDirection = CGVector(dx: 2, dy: 0)
            push.setTargetOffsetFromCenter(OffsetMake(0, -200), for: view)
            addChildBehavior(push)

            // Collide with the floor. Dead cat bounce.
            let collision = CollisionBehavior()
            collision.collisionMode = .boundaries
            collision.collisionDelegate = self
            collision.addBoundary(withIdentifier: "floor" as NSCopying,
                                  from: CGPoint(x: 0, y: superBounds.size.height),
                                  to: CGPoint(x: superBounds.size.width, y: superBounds.size.height))
            addChildBehavior(collision)
            collision.addItem(view)

            // Make it bounce up.
            let bounce = DynamicItemBehavior()
            bounce.elasticity = 0.4
            addChildBehavior(bounce)
            bounce.addItem(view)
        }

        func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: DynamicItem,
                               withBoundaryIdentifier identifier: NSCopying?, at p: CGPoint) {
            for case let bounce as DynamicItemBehavior in childBehaviors {
                log.append("BoundaryIdentifier = \(identifier.map { "\($0)" } ?? "nil")")
                let angularVelocity = bounce.angularVelocity(for: view)
                if angularVelocity <= abs(0.1) { // Do this just once.
                    log.append("adding angular velocity")
                    bounce.addAngularVelocity(30, for: view)
                }
                break
            }
        }
    }

    @Test func theViewDropsBouncesRollsAwayAndTheBehaviourRemovesItself() throws {
        // The reference view, held by the test as a view hierarchy holds it (the animator's hold is weak).
        let screen = View(frame: CGRect(x: 0, y: 0, width: 320, height: 480))
        let animator = DynamicAnimator(referenceView: screen)
        let view = View(frame: CGRect(x: 20, y: 20, width: 100, height: 100))   // mass 1
        let behavior = DropBounceAndRollBehavior(view: view)
        animator.addBehavior(behavior)
        #expect(behavior.childBehaviors.count == 4)
        #expect(behavior.childBehaviors.allSatisfy { $0.dynamicAnimator === animator })

        // The push: an impulse of 200 mass·pt/s to the right, 200 pt above the center, so the
        // view leaves at 200 pt/s and turns at (r × J) / I = (200 · 200) / (m(w² + h²)/12)
        // = 24 rad/s, clockwise on screen (its top is pushed right).
        animator.step()
        let items = DynamicItemBehavior(items: [view])
        animator.addBehavior(items)
        #expect(abs(items.linearVelocity(for: view).x - 200) < 1)
        #expect(abs(items.angularVelocity(for: view) - 24) < 0.5)
        animator.removeBehavior(items)

        let gone = try #require(runUntil(animator, seconds: 20) { animator.behaviors.isEmpty })
        #expect(behavior.log.first == "BoundaryIdentifier = floor")
        // Already spinning at 24 rad/s when it lands, so the book's "just once" test
        // (angular velocity ≤ 0.1) adds no more spin.
        #expect(!behavior.log.contains("adding angular velocity"))
        #expect(behavior.log.last == "done")
        // It left by the right-hand side (there are no walls, only the floor), after bouncing.
        #expect(view.center.x - 50 > 320)
        #expect(gone > 1)
        #expect(behavior.dynamicAnimator == nil)
        withExtendedLifetime(screen) {}
    }
}
