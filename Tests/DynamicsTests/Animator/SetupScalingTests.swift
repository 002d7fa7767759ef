import DynamicsEngine
import DynamicsScenes
import Foundation
import Testing

@testable import Dynamics

/// Issue 29.1, the rest of it: boundaries by identifier, waiting velocities, collision slots and
/// deep behaviour chains cost amortised O(1) per operation (`bench --setup`: boundary_add_remove,
/// velocity_queue, velocity_spawn, child_chain). These tests check the faster structures keep
/// exactly the order and results of the linear ones they replaced; nothing here is timed.
@Suite("Setup scaling")
struct SetupScalingTests {
    /// The explicit boundaries of `collision` as the animator's world holds them: identifier →
    /// the segment of its body (every boundary here is one segment).
    func worldSegments(_ animator: DynamicAnimator, _ collision: CollisionBehavior) -> [AnyHashable: [Vec2]] {
        var result: [AnyHashable: [Vec2]] = [:]
        for case let record? in animator.boundarySlots.slots where record.behavior === collision {
            guard let id = record.identifier else { continue }
            let shapes = animator.world.shapes(of: record.body)
            #expect(shapes.count == 1)
            result[id] = shapes.first.map { animator.world.outline($0).points } ?? []
        }
        return result
    }

    /// The one-segment boundary `k` (10 pt long, on a 16 pt grid; `lift` moves its right end).
    func segment(_ k: Int, lift: CGFloat = 0) -> (CGPoint, CGPoint) {
        let p = CGPoint(x: 16 * (k % 20), y: 16 * (k / 20))
        return (p, CGPoint(x: p.x + 10, y: p.y + lift))
    }

    @Test func boundariesRemovedInRandomOrderKeepInsertionOrderAndTheWorldsSegments() throws {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let item = square(4, at: CGPoint(x: -50, y: -50))
        let collision = CollisionBehavior(items: [item])
        animator.addBehavior(collision)
        var expected: [Int] = Array(0..<300)
        var lifted = Set<Int>()
        for k in expected { collision.addBoundary(withIdentifier: k, from: segment(k).0, to: segment(k).1) }
        animator.step()
        var generator = SplitMix64Generator(seed: 29)   // the scenes' seeded SplitMix64
        var order = expected
        order.shuffle(using: &generator)
        // 250 removals in a random order (several compactions), a replacement and a step now and then.
        for (n, k) in order.prefix(250).enumerated() {
            collision.removeBoundary(withIdentifier: k)
            expected.removeAll { $0 == k }
            if n % 37 == 0, let r = expected.randomElement(using: &generator) {
                // Replacing keeps the boundary's place.
                collision.addBoundary(withIdentifier: r, from: segment(r, lift: 2).0, to: segment(r, lift: 2).1)
                lifted.insert(r)
            }
            if n % 50 == 0 { animator.step() }
        }
        #expect(collision.boundaryIdentifiers == expected.map { AnyHashable($0) })
        animator.step()
        let segments = worldSegments(animator, collision)
        #expect(segments.count == expected.count)
        for k in expected {
            let (p, q) = segment(k, lift: lifted.contains(k) ? 2 : 0)
            #expect(segments[AnyHashable(k)] == [Vec2(p), Vec2(q)], "boundary \(k)")
            #expect(collision.boundary(withIdentifier: k) != nil)
        }
        // Added after the removals: at the end.
        collision.addBoundary(withIdentifier: "last", from: CGPoint(x: 0, y: 470), to: CGPoint(x: 300, y: 470))
        collision.addBoundary(withIdentifier: expected[0], from: segment(expected[0]).0, to: segment(expected[0]).1)
        #expect(collision.boundaryIdentifiers == expected.map { AnyHashable($0) } + ["last"])
        // A snapshot names boundaries by their place in that order; it restores and continues alike.
        animator.step()
        let snapshot = animator.snapshot()
        run(animator, steps: 5)
        let after = animator.snapshot()
        try animator.restore(snapshot)
        run(animator, steps: 5)
        #expect(animator.snapshot().checksum == after.checksum)
        collision.removeAllBoundaries()
        animator.step()
        #expect(collision.boundaryIdentifiers.isEmpty && worldSegments(animator, collision).isEmpty)
    }

    @Test func keyedListKeepsOrderThroughRemovalsReplacementsAndCompaction() {
        var list = KeyedList<Int, String>()
        var reference: [(Int, String)] = []
        for k in 0..<500 { list.set("v\(k)", for: k); reference.append((k, "v\(k)")) }
        for k in stride(from: 0, to: 500, by: 3) { list.remove(k); reference.removeAll { $0.0 == k } }
        #expect(list.set("w7", for: 7) == "v7")
        reference[reference.firstIndex { $0.0 == 7 }!].1 = "w7"
        for k in 0..<400 where k % 5 != 0 { list.remove(k); reference.removeAll { $0.0 == k } }
        #expect(list.keys == reference.map(\.0) && list.entries.map(\.value) == reference.map(\.1))
        #expect(list.count == reference.count && list[reference[3].0] == reference[3].1 && list[1] == nil)
        for (i, e) in reference.enumerated() {
            #expect(list.index(of: e.0) == i && list.entry(at: i).key == e.0)
        }
        #expect(list.ordered([reference[5].0, 1, reference[2].0, reference[5].0]) == [reference[2].0, reference[5].0])
    }

    @Test func velocitiesQueuedOutsideTheAnimatorReachTheirOwnItems() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let items = (0..<200).map { k in square(4, at: CGPoint(x: 10 * (k % 20), y: 10 * (k / 20))) }
        let behavior = DynamicItemBehavior(items: items)
        for (k, item) in items.enumerated() { behavior.addLinearVelocity(CGPoint(x: k, y: 0), for: item) }
        for (k, item) in items.enumerated().reversed() { behavior.addLinearVelocity(CGPoint(x: 0, y: -k), for: item) }
        behavior.addAngularVelocity(1.5, for: items[17])
        #expect(behavior.linearVelocity(for: items[42]) == CGPoint(x: 42, y: -42))
        animator.addBehavior(behavior)
        animator.step()
        // No force, no damping, no collision: each keeps exactly its own velocity.
        for (k, item) in items.enumerated() {
            #expect(behavior.linearVelocity(for: item) == CGPoint(x: k, y: -k), "item \(k)")
            #expect(behavior.angularVelocity(for: item) == (k == 17 ? 1.5 : 0), "item \(k)")
        }
    }

    /// Launching items (added and given a velocity before the next step) defers the velocity to
    /// the next synchronisation: the result is bit for bit that of synchronising at every call.
    @Test func deferredVelocitiesMatchSynchronisingAtEveryCall() {
        func launch(syncEachCall: Bool) -> ([CGPoint], DynamicAnimator) {
            let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
            let collision = CollisionBehavior(), gravity = GravityBehavior()
            let first = DynamicItemBehavior(), second = DynamicItemBehavior()
            first.resistance = 0.3
            collision.translatesReferenceBoundsIntoBoundary = true
            for b in [collision, gravity, first, second] as [DynamicBehavior] { animator.addBehavior(b) }
            // The boundary's body first: the world's bodies are then made in the same order
            // however often it synchronises (the order of bodies decides the solver's order).
            animator.step()
            let items: [BasicDynamicItem] = (0..<60).map { (k: Int) -> BasicDynamicItem in
                square(12, at: CGPoint(x: Double(20 + 14 * (k % 20)), y: Double(40 + 14 * (k / 20))))
            }
            for (k, item) in items.enumerated() {
                collision.addItem(item)
                gravity.addItem(item)
                first.addItem(item)
                if syncEachCall { _ = first.linearVelocity(for: item) }
                // Two behaviours, interleaved, twice each: the order of the additions is kept.
                first.addLinearVelocity(CGPoint(x: 0.1 * Double(k), y: -300), for: item)
                second.addLinearVelocity(CGPoint(x: 1.0 / 3.0, y: 0.7), for: item)
                first.addLinearVelocity(CGPoint(x: 0.3, y: 0.1 * Double(k)), for: item)
                second.addAngularVelocity(0.01 * Double(k), for: item)
                if k % 7 == 0 {
                    // A velocity for an item that is not in the world yet waits for it.
                    let later = square(8, at: CGPoint(x: 300, y: 20))
                    if syncEachCall { _ = second.linearVelocity(for: later) }
                    second.addLinearVelocity(CGPoint(x: -5, y: 0), for: later)
                }
            }
            run(animator, steps: 90)
            return (items.map { $0.center }, animator)
        }
        let (deferred, a) = launch(syncEachCall: false)
        let (synced, b) = launch(syncEachCall: true)
        #expect(deferred == synced)
        #expect(a.diagnostics.count == b.diagnostics.count)
        #expect(deferred.contains { $0.y > 440 })   // they fell and hit the floor
    }

    @Test func aVelocityForAnItemThatLeavesBeforeTheSynchronisationWaitsForItToJoin() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let holder = GravityBehavior(), behavior = DynamicItemBehavior()
        holder.gravityDirection = .zero
        animator.addBehavior(holder)
        animator.addBehavior(behavior)
        let item = square(10, at: CGPoint(x: 100, y: 100))
        holder.addItem(item)
        behavior.addLinearVelocity(CGPoint(x: 30, y: 0), for: item)
        holder.removeItem(item)
        animator.step()
        #expect(animator.record(for: item) == nil)
        #expect(behavior.linearVelocity(for: item) == CGPoint(x: 30, y: 0))
        holder.addItem(item)
        animator.step()
        #expect(behavior.linearVelocity(for: item) == CGPoint(x: 30, y: 0))
        #expect(item.center.x > 100)
    }

    @Test func collisionSlotsAreReusedLowestFirstAndTheThirtySecondIsRefused() throws {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let behaviors = (0..<31).map { _ in CollisionBehavior() }
        for b in behaviors { animator.addBehavior(b) }
        #expect(behaviors.map(\.slot) == (0..<31).map { Optional($0) })
        let extra = CollisionBehavior()
        animator.addBehavior(extra)
        #expect(extra.slot == nil && animator.diagnostics.last?.kind == .tooManyCollisionBehaviors(behavior: ObjectIdentifier(extra)))
        animator.removeBehavior(extra)
        animator.removeBehavior(behaviors[10])
        animator.removeBehavior(behaviors[3])
        let snapshot = animator.snapshot()
        let first = CollisionBehavior(), second = CollisionBehavior()
        animator.addBehavior(first)
        animator.addBehavior(second)
        #expect(first.slot == 3 && second.slot == 10)
        // Restored slots are free or taken as the snapshot says.
        animator.removeBehavior(first)
        animator.removeBehavior(second)
        try animator.restore(snapshot)
        let third = CollisionBehavior()
        animator.addBehavior(third)
        #expect(third.slot == 3)
    }

    @Test func aChainGrownAtItsDeepEndJoinsLinkByLinkAndLeavesFromTheCut() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 320, height: 480))
        let links = (0..<2000).map { k in GravityBehavior(items: [square(4, at: CGPoint(x: 6 * (k % 50), y: 6 * (k / 50)))]) }
        animator.addBehavior(links[0])
        for k in 1..<links.count { links[k - 1].addChildBehavior(links[k]) }
        #expect(links.allSatisfy { $0.dynamicAnimator === animator })
        animator.step()
        #expect(identical(animator.flat, links) && animator.records.count == links.count)
        // The deepest link cannot take the top as a child (a cycle), however deep.
        links[1999].addChildBehavior(links[0])
        #expect(animator.diagnostics.last?.kind == .behaviorCycle(behavior: ObjectIdentifier(links[0])))
        // Cut at link 1000: links 1000… leave. Inside an action, with a link grown under the cut
        // part in the same step (its changes wait for the end of the step): it must not join.
        let grown = GravityBehavior()
        links[0].action = { [links] in
            links[999].removeChildBehavior(links[1000])
            links[1999].addChildBehavior(grown)
            links[0].action = nil
        }
        animator.step()
        #expect(links[..<1000].allSatisfy { $0.dynamicAnimator === animator })
        #expect(links[1000...].allSatisfy { $0.dynamicAnimator == nil } && grown.dynamicAnimator == nil)
        animator.step()
        #expect(identical(animator.flat, links[..<1000]) && animator.records.count == 1000)
        // Put back: every link joins again, and the grown one with them.
        links[999].addChildBehavior(links[1000])
        #expect(links.allSatisfy { $0.dynamicAnimator === animator } && grown.dynamicAnimator === animator)
    }

    /// Releasing a chain nested 100 000 deep released each link from inside its parent's deinit
    /// and overflowed the stack (about 33 000 links did); now it is taken apart level by level.
    @Test func aDeepChainIsReleasedWithoutRecursion() {
        weak var deepest: DynamicBehavior?
        var top: DynamicBehavior? = DynamicBehavior()
        do {
            var link = top!
            for _ in 1..<100_000 {
                let child = DynamicBehavior()
                link.addChildBehavior(child)
                link = child
            }
            deepest = link
        }
        #expect(deepest != nil)
        top = nil
        #expect(deepest == nil && top == nil)
    }
}
