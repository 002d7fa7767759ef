import Foundation
import Testing

@testable import Dynamics

@Suite("DynamicAnimator")
struct DynamicAnimatorTests {
    @Test func defaults() {
        let animator = DynamicAnimator()
        #expect(animator.referenceBounds == nil)
        #expect(animator.stepDuration == 1.0 / 60)
        #expect(animator.substeps == 4)
        #expect(animator.elapsedTime == 0)
        #expect(!animator.isRunning)
        #expect(animator.behaviors.isEmpty)
        #expect(animator.diagnostics.isEmpty)
        let bounded = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        #expect(bounded.referenceBounds == CGRect(x: 0, y: 0, width: 320, height: 480))
        let bad = DynamicAnimator(referenceBounds: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1))
        #expect(bad.referenceBounds == nil)
        #expect(bad.diagnostics.count == 1)
    }

    /// Without interpolation `advance(by:)` runs the whole steps that fit and carries the rest
    /// over (with interpolation, see `InterpolationTests`).
    @Test func advanceCountsWholeStepsWithATolerance() {
        let animator = DynamicAnimator()
        animator.interpolatesItems = false
        let item = square(at: .zero)
        animator.addBehavior(GravityBehavior(items: [item]))
        #expect(animator.advance(by: 1) == 60)
        var total = 0
        for _ in 0..<60 { total += animator.advance(by: 1.0 / 60) }
        #expect(total == 60)
        #expect(animator.advance(by: 0.5 / 60) == 0)
        #expect(animator.advance(by: 0.5 / 60) == 1)
        #expect(animator.advance(by: 0) == 0)
        #expect(animator.advance(by: -1) == 0)
        #expect(animator.advance(by: .nan) == 0)
        #expect(animator.diagnostics.count == 2)
        #expect(abs(animator.elapsedTime - 121.0 / 60) < 1e-9)
        animator.stepDuration = 1.0 / 120
        #expect(animator.advance(by: 1) == 120)
        animator.stepDuration = 0
        animator.substeps = 0
        #expect(animator.stepDuration == 1.0 / 120 && animator.substeps == 4)
    }

    /// Without interpolation a frame is a step or an advance that ran steps (with it, every
    /// advance that moved the shown poses: `InterpolationTests`).
    @Test func frameObserversHearEveryStepAndEveryAdvanceOnce() {
        let animator = DynamicAnimator()
        animator.interpolatesItems = false
        let a = square(at: .zero, name: "a")
        let b = square(at: CGPoint(x: 500, y: 0))
        animator.addBehavior(GravityBehavior(items: [a, b]))
        var reports: [FrameReport] = []
        let token = animator.addFrameObserver { reports.append($0) }
        animator.step()
        animator.advance(by: 0.1)
        animator.advance(by: 0.001)
        #expect(reports.count == 2)
        #expect(reports.map(\.index) == [0, 1])
        #expect(reports.map(\.steps) == [1, 6])
        #expect(reports[1].time == animator.elapsedTime)
        #expect(reports[1].items.map(\.name) == ["a", nil])
        #expect(reports[1].items[0].center == a.center)
        #expect(abs(reports[1].items[0].velocity.y - 1000 * 7.0 / 60) < 1e-2)
        #expect(!reports[1].items[0].isResting)
        animator.removeFrameObserver(token)
        animator.step()
        #expect(reports.count == 2)
    }

    @Test func theAnimatorPausesWithinASecondOfRestAndResumesOnChange() {
        let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        let recorder = AnimatorRecorder()
        animator.delegate = recorder
        let item = square(50, at: CGPoint(x: 200, y: 200))
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: [item])
        animator.addBehavior(collision)
        #expect(recorder.events == ["resume"])
        animator.addBehavior(gravity)
        #expect(recorder.events == ["resume"])
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(probe)
        var lastMoving = 0.0
        var pausedAt: Double?
        for k in 1...600 {
            animator.step()
            let t = Double(k) / 60
            let v = probe.linearVelocity(for: item)
            if hypot(v.x, v.y) >= 5 { lastMoving = t }
            if !animator.isRunning { pausedAt = t; break }
        }
        #expect(recorder.events == ["resume", "pause"])
        let paused = try! #require(pausedAt)
        #expect(paused - lastMoving <= 1)
        #expect(abs(item.center.y - 375) < 1)
        // A paused animator's steps are cheap and do not advance its time.
        let time = animator.elapsedTime
        #expect(abs(time - paused) < 1e-9)
        animator.advance(by: 1)
        #expect(animator.elapsedTime == time)
        #expect(recorder.events == ["resume", "pause"])
        // Any change that can move an item resumes it.
        gravity.magnitude = 2
        #expect(recorder.events == ["resume", "pause", "resume"])
        #expect(animator.isRunning)
        animator.advance(by: 2)
        #expect(recorder.events == ["resume", "pause", "resume", "pause"])
        animator.updateItem(usingCurrentState: item)
        #expect(animator.isRunning)
        animator.advance(by: 2)
        probe.addLinearVelocity(CGPoint(x: 0, y: -100), for: item)
        #expect(animator.isRunning)
        #expect(animator.world.validationErrors.isEmpty)
    }

    @Test func behaviorsAddedOrRemovedInsideAnActionTakeEffectAtTheEndOfTheStep() {
        let animator = DynamicAnimator()
        let item = square(at: .zero)
        let gravity = GravityBehavior(items: [item])
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 1, dy: 0)
        let probe = DynamicItemBehavior(items: [item])
        animator.addBehavior(probe)
        animator.addBehavior(gravity)
        var calls = 0
        var behaviorsSeenInAction: [Int] = []
        // unowned: the animator keeps its behaviours and so this action alive (a strong capture is a
        // cycle, as it would be with UIKit)
        gravity.action = { [unowned animator, unowned gravity] in
            calls += 1
            behaviorsSeenInAction.append(animator.behaviors.count)
            if calls == 1 {
                animator.addBehavior(push)
                animator.removeBehavior(gravity)
                animator.removeBehavior(gravity)   // already queued: reported at the end of the step
                #expect(push.dynamicAnimator == nil)
                #expect(gravity.dynamicAnimator === animator)
            }
        }
        animator.step()
        #expect(calls == 1)
        #expect(behaviorsSeenInAction == [2])
        #expect(animator.behaviors.count == 2)
        #expect(push.dynamicAnimator === animator && gravity.dynamicAnimator == nil)
        #expect(probe.linearVelocity(for: item).x == 0)
        let vy = probe.linearVelocity(for: item).y
        #expect(abs(vy - 1000.0 / 60) < 1e-3)
        animator.step()
        // The push acted on the next step; gravity no longer did; the removed gravity's action is gone.
        #expect(abs(probe.linearVelocity(for: item).x - 100) < 1e-3)
        #expect(abs(probe.linearVelocity(for: item).y - vy) < 1e-3)
        #expect(calls == 1)
        #expect(animator.diagnostics.count == 1)
    }

    @Test func mutationFromDelegatesAndObserversIsSafe() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 400))
        final class Remover: CollisionBehaviorDelegate {
            var onBegan: () -> Void = {}
            func collisionBehavior(_ behavior: CollisionBehavior, beganContactFor item: any DynamicItem,
                                   withBoundaryIdentifier identifier: AnyHashable?, at p: CGPoint) { onBegan() }
        }
        let items = (0..<5).map { square(30, at: CGPoint(x: 40 + 70 * CGFloat($0), y: 300 - 40 * CGFloat($0))) }
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let gravity = GravityBehavior(items: items)
        let remover = Remover()
        remover.onBegan = { [unowned animator] in
            animator.removeAllBehaviors()
            animator.addBehavior(gravity)
            collision.removeItem(items[0])
        }
        collision.collisionDelegate = remover
        animator.addBehavior(collision)
        animator.addBehavior(gravity)
        animator.addFrameObserver { [unowned animator] _ in
            if let first = animator.behaviors.first { animator.removeBehavior(first); animator.addBehavior(first) }
        }
        animator.advance(by: 2)
        #expect(animator.behaviors.count == 1)
        #expect(items.allSatisfy { $0.center.y > 400 })
    }

    @Test func itemsInRect() {
        let animator = DynamicAnimator()
        let a = square(50, at: CGPoint(x: 100, y: 100))
        let b = square(50, at: CGPoint(x: 400, y: 400))
        let c = square(50, at: CGPoint(x: 180, y: 100))
        animator.addBehavior(CollisionBehavior(items: [a, b, c]))
        let found = animator.items(in: CGRect(x: 0, y: 0, width: 160, height: 200))
        #expect(found.count == 2)
        #expect(found[0] === a && found[1] === c)
        #expect(animator.items(in: CGRect(x: 500, y: 500, width: 10, height: 10)).isEmpty)
        #expect(animator.items(in: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)).isEmpty)
        #expect(animator.diagnostics.count == 1)
    }

    @Test func updateItemKeepsVelocityAndRereadsSize() {
        let animator = DynamicAnimator()
        let item = square(100, at: .zero)
        let probe = DynamicItemBehavior(items: [item])
        probe.addLinearVelocity(CGPoint(x: 60, y: 0), for: item)
        animator.addBehavior(probe)
        animator.advance(by: 0.5)
        item.center = CGPoint(x: 500, y: 500)
        item.transform = CGAffineTransform(rotationAngle: 0.3)
        item.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        animator.updateItem(usingCurrentState: item)
        #expect(abs(probe.linearVelocity(for: item).x - 60) < 1e-3)
        animator.step()
        #expect(abs(item.center.x - 501) < 1e-3)
        #expect(abs(item.angle - 0.3) < 1e-6)
        // Mass 4 now: an impulse of 1 adds 25 pt/s.
        let push = PushBehavior(items: [item], mode: .instantaneous)
        push.magnitude = 1
        animator.addBehavior(push)
        animator.step()
        #expect(abs(probe.linearVelocity(for: item).x - 85) < 1e-3)
        // Size re-read: a 200 pt item is found 90 pt beyond its center.
        #expect(animator.items(in: CGRect(x: item.center.x + 90, y: item.center.y, width: 1, height: 1)).count == 1)
        animator.updateItem(usingCurrentState: square(at: .zero))
        #expect(animator.diagnostics.count == 1)
    }

    @Test func groupsMoveAsOneBodyWithSummedMass() {
        let animator = validatingAnimator()
        let left = square(100, at: CGPoint(x: 100, y: 100), name: "left")
        let right = square(100, at: CGPoint(x: 200, y: 100), name: "right")
        let group = DynamicItemGroup(items: [left, right])
        #expect(group.center == CGPoint(x: 150, y: 100))
        #expect(group.bounds.size == CGSize(width: 200, height: 100))
        let push = PushBehavior(items: [group], mode: .instantaneous)
        push.magnitude = 1
        let probe = DynamicItemBehavior(items: [group])
        animator.addBehavior(push)
        animator.addBehavior(probe)
        animator.step()
        #expect(abs(probe.linearVelocity(for: group).x - 50) < 1e-3)
        #expect(abs(animator.mass(of: animator.record(for: group)!) - 2) < 1e-5)
        animator.advance(by: 1)
        #expect(abs(right.center.x - left.center.x - 100) < 1e-3)
        #expect(abs(group.center.x - (left.center.x + 50)) < 1e-3)
        // Spinning the group turns the members about its center.
        probe.addAngularVelocity(.pi / 2, for: group)
        animator.advance(by: 1)
        #expect(abs(left.angle - group.angle) < 1e-6)
        let offset = CGPoint(x: right.center.x - group.center.x, y: right.center.y - group.center.y)
        #expect(abs(hypot(offset.x, offset.y) - 50) < 1e-3)
        #expect(abs(atan2(offset.y, offset.x) - group.angle) < 1e-3)
        #expect(animator.world.validationErrors.isEmpty)
    }

    @Test func groupMisuseIsReported() {
        let animator = DynamicAnimator()
        let a = square(at: .zero), b = square(at: CGPoint(x: 100, y: 0))
        let first = DynamicItemGroup(items: [a, b])
        let second = DynamicItemGroup(items: [b])
        let nested = DynamicItemGroup(items: [first])
        let empty = DynamicItemGroup(items: [])
        animator.addBehavior(GravityBehavior(items: [first, second, a, nested, empty]))
        animator.step()
        // b in two groups; a alone and in a group; first nested in another group (so it is ignored
        // on its own); the nested group then has no members; the empty group.
        #expect(animator.diagnostics.count >= 4)
        #expect(animator.record(for: second) == nil || animator.record(for: second)!.members.isEmpty == false)
        animator.advance(by: 1)
        #expect(a.center.x.isFinite && b.center.y.isFinite)
    }

    @Test func behaviorsAddedTwiceOrToTwoAnimatorsAreReported() {
        let one = DynamicAnimator(), two = DynamicAnimator()
        let gravity = GravityBehavior()
        one.addBehavior(gravity)
        one.addBehavior(gravity)
        two.addBehavior(gravity)
        one.removeBehavior(GravityBehavior())
        #expect(one.diagnostics.count == 2)
        #expect(two.diagnostics.count == 1)
        #expect(one.behaviors.count == 1 && two.behaviors.isEmpty)
        let parent = DynamicBehavior()
        parent.addChildBehavior(gravity)
        #expect(parent.childBehaviors.isEmpty)
        one.removeBehavior(gravity)
        #expect(gravity.dynamicAnimator == nil)
        two.addBehavior(gravity)
        #expect(gravity.dynamicAnimator === two)
    }

    @Test func degenerateItemsAreSimulatedWithFallbacks() {
        let animator = DynamicAnimator()
        let zero = BasicDynamicItem(center: .zero, size: .zero)
        let huge = BasicDynamicItem(center: CGPoint(x: 0, y: 5000), size: CGSize(width: 1e9, height: 10))
        let lost = BasicDynamicItem(center: CGPoint(x: CGFloat.nan, y: 0), size: CGSize(width: 10, height: 10))
        let pathless = BasicDynamicItem(center: CGPoint(x: 300, y: 0), size: CGSize(width: 10, height: 10), collisionBoundsType: .path)
        let gravity = GravityBehavior(items: [zero, huge, lost, pathless])
        animator.addBehavior(gravity)
        animator.advance(by: 1)
        #expect(animator.diagnostics.count == 5)
        #expect(zero.center.y > 400)
        #expect(lost.center.x == 0 && lost.center.y > 400)
        #expect(pathless.center.y > 400)
        // The minimum 1 pt square has mass 1e-4.
        #expect(abs(animator.mass(of: animator.record(for: zero)!) - 1e-4) < 1e-8)
    }

    @Test func runsAreDeterministic() {
        func run() -> [CGPoint] {
            let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 300, height: 300))
            var items: [BasicDynamicItem] = []
            for k in 0..<12 {
                let side: CGFloat = 20 + CGFloat(k % 3) * 5
                let x: CGFloat = 40 + CGFloat(k % 4) * 60 + CGFloat(k)
                let y: CGFloat = 30 + CGFloat(k / 4) * 50
                items.append(square(side, at: CGPoint(x: x, y: y), type: k % 2 == 0 ? .rectangle : .ellipse))
            }
            let collision = CollisionBehavior(items: items)
            collision.translatesReferenceBoundsIntoBoundary = true
            let material = DynamicItemBehavior(items: items)
            material.elasticity = 0.4
            material.friction = 0.3
            animator.addBehavior(collision)
            animator.addBehavior(material)
            animator.addBehavior(GravityBehavior(items: items))
            animator.advance(by: 3)
            return items.map { $0.center }
        }
        #expect(run() == run())
    }
}
