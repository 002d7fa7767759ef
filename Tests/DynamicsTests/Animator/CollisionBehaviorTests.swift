import Foundation
import Testing

import Dynamics

@Suite("CollisionBehavior")
struct CollisionBehaviorTests {
    let bounds = CGRect(x: 0, y: 0, width: 400, height: 400)

    @Test func equalMassesExchangeVelocitiesInAnElasticHeadOnCollision() {
        let animator = validatingAnimator()
        let a = square(50, at: CGPoint(x: 100, y: 100), name: "a", type: .ellipse)
        let b = square(50, at: CGPoint(x: 300, y: 100), name: "b", type: .ellipse)
        let material = DynamicItemBehavior(items: [a, b])
        material.elasticity = 1
        material.addLinearVelocity(CGPoint(x: 300, y: 0), for: a)
        animator.addBehavior(material)
        animator.addBehavior(CollisionBehavior(items: [a, b]))
        animator.advance(by: 1)
        let va = material.linearVelocity(for: a), vb = material.linearVelocity(for: b)
        #expect(abs(va.x) < 0.03 * 300)
        #expect(abs(vb.x - 300) < 0.03 * 300)
        #expect(abs(va.y) < 1e-3 && abs(vb.y) < 1e-3)
        #expect(validationErrors(of: animator).isEmpty)
    }

    @Test func inelasticItemLandsAndStays() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = square(50, at: CGPoint(x: 200, y: 100))
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        var landed = false
        var highestAfterLanding = CGFloat.infinity
        run(animator, steps: 120) { _ in
            if item.center.y > 374 { landed = true }
            if landed { highestAfterLanding = min(highestAfterLanding, item.center.y) }
        }
        #expect(landed)
        #expect(highestAfterLanding > 374)
    }

    @Test func moreElasticItemsBounceHigher() {
        func apexAfterFirstBounce(elasticity: CGFloat) -> CGFloat {
            let animator = DynamicAnimator(referenceBounds: bounds)
            let item = square(50, at: CGPoint(x: 200, y: 100))
            let collision = CollisionBehavior(items: [item])
            collision.translatesReferenceBoundsIntoBoundary = true
            let bouncy = DynamicItemBehavior(items: [item])
            bouncy.elasticity = elasticity
            animator.addBehavior(collision)
            animator.addBehavior(bouncy)
            animator.addBehavior(GravityBehavior(items: [item]))
            var landed = false
            var apex = CGFloat.infinity
            run(animator, steps: 90) { _ in
                if item.center.y > 370 { landed = true }
                if landed { apex = min(apex, item.center.y) }
            }
            #expect(landed)
            return apex
        }
        let high = apexAfterFirstBounce(elasticity: 0.9), low = apexAfterFirstBounce(elasticity: 0.5)
        // Dropped 275 pt onto the floor (the center lands at y = 375): a bounce of elasticity e
        // rises e² × 275 pt; within 5 % of the drop (the fixed step meets the floor within a step).
        #expect(abs((375 - high) - 0.81 * 275) < 0.05 * 275, "e = 0.9 rose \(375 - high) pt")
        #expect(abs((375 - low) - 0.25 * 275) < 0.05 * 275, "e = 0.5 rose \(375 - low) pt")
    }

    /// UIKit Dynamics Catalog, "Gravity + Collision": a square falls and rests on the reference-bounds floor.
    @Test func catalogGravityAndCollisionDemoRestsOnTheFloor() {
        let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let square = square(100, at: CGPoint(x: 160, y: 100))
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        let collision = CollisionBehavior(items: [square])
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(GravityBehavior(items: [square]))
        animator.addBehavior(collision)
        animator.advance(by: 4)
        #expect(abs(square.center.y - 430) < 1)
        #expect(abs(square.center.x - 160) < 0.01)
        #expect(abs(square.angle) < 0.001)
        #expect(recorder.events == ["resume", "pause"])
        #expect(!animator.isRunning)
        #expect(validationErrors(of: animator).isEmpty)
    }

    @Test func insetsMoveTheReferenceBoundary() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = square(50, at: CGPoint(x: 200, y: 100))
        let collision = CollisionBehavior(items: [item])
        collision.setTranslatesReferenceBoundsIntoBoundary(with: .init(top: 0, left: 0, bottom: 100, right: 0))
        #expect(collision.translatesReferenceBoundsIntoBoundary)
        #expect(collision.referenceBoundsInsets.bottom == 100)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 3)
        #expect(abs(item.center.y - 275) < 1)
        collision.translatesReferenceBoundsIntoBoundary = true
        #expect(collision.referenceBoundsInsets == .zero)
        animator.advance(by: 3)
        #expect(abs(item.center.y - 375) < 1)
    }

    @Test func itemsOfDifferentCollisionBehaviorsPassThroughEachOther() {
        func finalX(sameBehavior: Bool) -> (a: CGFloat, b: CGFloat) {
            let animator = DynamicAnimator()
            let a = square(50, at: CGPoint(x: 0, y: 0))
            let b = square(50, at: CGPoint(x: 200, y: 0))
            let motion = DynamicItemBehavior(items: [a])
            motion.addLinearVelocity(CGPoint(x: 400, y: 0), for: a)
            animator.addBehavior(motion)
            if sameBehavior {
                animator.addBehavior(CollisionBehavior(items: [a, b]))
            } else {
                animator.addBehavior(CollisionBehavior(items: [a]))
                animator.addBehavior(CollisionBehavior(items: [b]))
            }
            animator.advance(by: 1)
            return (a.center.x, b.center.x)
        }
        // Apart, a sails through b to 400 pt; together, a stops behind b (an inelastic hit at
        // t = 0.375 s, then both move on at 200 pt/s: a ends near 275 pt, b near 325 pt).
        let apart = finalX(sameBehavior: false), together = finalX(sameBehavior: true)
        #expect(apart.a > 399 && apart.b == 200)
        #expect(abs(together.a - 275) < 5 && abs(together.b - 325) < 5)
    }

    @Test func modeItemsIgnoresBoundariesAndModeBoundariesIgnoresItems() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let a = square(50, at: CGPoint(x: 100, y: 300))
        let b = square(50, at: CGPoint(x: 100, y: 200))
        let collision = CollisionBehavior(items: [a, b])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionMode = .boundaries
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [a, b]))
        animator.advance(by: 2)
        // Both rest on the floor, overlapping.
        #expect(abs(a.center.y - 375) < 1 && abs(b.center.y - 375) < 1)
        collision.collisionMode = .items
        animator.advance(by: 2)
        #expect(a.center.y > 500 && b.center.y > 500)
    }

    @Test func explicitBoundariesStopItems() {
        let animator = DynamicAnimator()
        let item = square(50, at: CGPoint(x: 100, y: 0))
        let collision = CollisionBehavior(items: [item])
        collision.addBoundary(withIdentifier: "shelf", from: CGPoint(x: 0, y: 200), to: CGPoint(x: 300, y: 200))
        let cup = BezierPath()
        cup.move(to: CGPoint(x: 400, y: 100))
        cup.addLine(to: CGPoint(x: 400, y: 300))
        cup.addLine(to: CGPoint(x: 600, y: 300))
        cup.addLine(to: CGPoint(x: 600, y: 100))
        collision.addBoundary(withIdentifier: 7, for: cup)
        #expect(collision.boundaryIdentifiers == ["shelf", 7])
        #expect(collision.boundary(withIdentifier: 7) == cup)
        #expect(collision.boundary(withIdentifier: "shelf")?.elements.count == 2)
        #expect(collision.boundary(withIdentifier: "none") == nil)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 2)
        #expect(abs(item.center.y - 175) < 1)
        // Removing the shelf lets the (sleeping) item fall again.
        collision.removeBoundary(withIdentifier: "shelf")
        #expect(animator.isRunning)
        animator.advance(by: 1)
        #expect(item.center.y > 500)
        collision.removeAllBoundaries()
        #expect(collision.boundaryIdentifiers.isEmpty)
    }

    @Test func aClosedPathBoundaryKeepsItsClosingSegment() {
        let animator = DynamicAnimator()
        let item = square(20, at: CGPoint(x: 100, y: 100))
        let collision = CollisionBehavior(items: [item])
        // A closed triangle whose closing edge is the floor.
        let path = BezierPath()
        path.move(to: CGPoint(x: 0, y: 300))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 200, y: 300))
        path.close()
        collision.addBoundary(withIdentifier: "triangle", for: path)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 2)
        #expect(abs(item.center.y - 290) < 1)
    }

    @Test func delegateHearsItemAndBoundaryContacts() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let a = square(50, at: CGPoint(x: 100, y: 300), name: "a")
        let b = square(50, at: CGPoint(x: 300, y: 300), name: "b")
        let c = square(50, at: CGPoint(x: 100, y: 100), name: "c")
        let collision = CollisionBehavior(items: [a, b, c])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.addBoundary(withIdentifier: "ledge", from: CGPoint(x: 250, y: 340), to: CGPoint(x: 350, y: 340))
        let recorder = CollisionRecorder()
        collision.collisionDelegate = recorder
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [a, b, c]))
        animator.advance(by: 2)
        // a lands on the floor (nil identifier), b on the ledge, c on a.
        #expect(recorder.events.contains("began a|nil"))
        #expect(recorder.events.contains("began b|ledge"))
        #expect(recorder.events.contains { $0 == "began c-a" || $0 == "began a-c" })
        #expect(!recorder.events.contains { $0.hasPrefix("ended") })
        let ledgeIndex = recorder.events.firstIndex(of: "began b|ledge")!
        // The point is on the boundary.
        #expect(abs(recorder.points[ledgeIndex].y - 340) < 1e-3)
        // Lifting b off the ledge ends its contact.
        let lift = PushBehavior(items: [b], mode: .instantaneous)
        lift.pushDirection = CGVector(dx: 0, dy: -5)
        animator.addBehavior(lift)
        animator.advance(by: 0.2)
        #expect(recorder.events.contains("ended b|ledge"))
    }

    @Test func updatingAnUnchangedRestingItemKeepsItsContact() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = square(50, at: CGPoint(x: 200, y: 300), name: "item")
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        let recorder = CollisionRecorder()
        collision.collisionDelegate = recorder
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 2)
        #expect(recorder.events == ["began item|nil"])
        animator.updateItem(usingCurrentState: item)
        animator.advance(by: 1)
        #expect(recorder.events == ["began item|nil"])
        // A new size is a new shape: the contact ends and begins again.
        item.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        animator.updateItem(usingCurrentState: item)
        animator.advance(by: 1)
        #expect(recorder.events.last == "began item|nil")
        #expect(abs(item.center.y - 380) < 1)
    }

    @Test func anItemItemContactIsReportedByEveryBehaviorHoldingBoth() {
        let animator = DynamicAnimator()
        let a = square(50, at: CGPoint(x: 0, y: 0), name: "a")
        let b = square(50, at: CGPoint(x: 100, y: 0), name: "b")
        let first = CollisionBehavior(items: [a, b]), second = CollisionBehavior(items: [a, b]), third = CollisionBehavior(items: [a])
        let r1 = CollisionRecorder(), r2 = CollisionRecorder(), r3 = CollisionRecorder()
        first.collisionDelegate = r1
        second.collisionDelegate = r2
        third.collisionDelegate = r3
        let motion = DynamicItemBehavior(items: [a])
        motion.addLinearVelocity(CGPoint(x: 200, y: 0), for: a)
        for behavior in [first, second, third, motion] as [DynamicBehavior] { animator.addBehavior(behavior) }
        animator.advance(by: 1)
        #expect(r1.events.first == "began b-a" || r1.events.first == "began a-b")
        #expect(r1.events == r2.events)
        #expect(r3.events.isEmpty)
    }

    @Test func beganCallbacksComeBeforeEndedAndActions() {
        let animator = DynamicAnimator(referenceBounds: bounds)
        var log: [String] = []
        final class Logger: CollisionBehaviorDelegate {
            var log: (String) -> Void = { _ in }
            func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                   withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) { log("began") }
        }
        let logger = Logger()
        logger.log = { log.append($0) }
        let item = square(50, at: CGPoint(x: 200, y: 350))
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        collision.collisionDelegate = logger
        collision.action = { log.append("action") }
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: [item]))
        animator.advance(by: 0.5)
        let first = log.firstIndex(of: "began")!
        #expect(first > 0 && log[first + 1] == "action")
    }

    @Test func moreThanThirtyOneCollisionBehaviorsIsReported() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        for _ in 0..<32 { animator.addBehavior(CollisionBehavior(items: [item])) }
        #expect(animator.diagnostics.count == 1)
        // Removing one frees its slot for the next.
        animator.removeBehavior(animator.behaviors[0])
        animator.addBehavior(CollisionBehavior(items: [item]))
        #expect(animator.diagnostics.count == 1)
        animator.step()
    }

    @Test func badBoundariesAreReported() {
        let animator = DynamicAnimator()
        let collision = CollisionBehavior()
        collision.addBoundary(withIdentifier: "nan", from: CGPoint(x: CGFloat.nan, y: 0), to: .zero)
        collision.addBoundary(withIdentifier: "point", from: .zero, to: .zero)
        collision.addBoundary(withIdentifier: "empty", for: BezierPath())
        collision.translatesReferenceBoundsIntoBoundary = true
        animator.addBehavior(collision)
        animator.step()
        // Three bad boundaries, and no reference bounds in an init() animator.
        #expect(animator.diagnostics.count == 4)
        #expect(collision.boundaryIdentifiers.isEmpty)
    }
}
