import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// Items created on one point: every pair overlaps completely, so an unbounded broad phase makes
/// n²/2 contacts (1 000 items: 499 500). The engine's contact budget (`World.crowdLimit`) keeps at
/// most 64 crowding pairs per shape; the animator says so once; and the pairs kept push the heap
/// apart until it no longer needs the budget.
@Suite("Stacked heap")
struct StackedHeapTests {
    static let count = 1000
    static let side: CGFloat = 20

    /// n items of `side` on one point in one collision behaviour, no gravity, no boundary.
    static func heap(workers: Int = 1) -> (DynamicAnimator, [BasicDynamicItem]) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1024, height: 768), workerCount: workers)
        let collision = CollisionBehavior()
        let items = (0..<count).map { _ in square(side, at: CGPoint(x: 512, y: 384)) }
        for i in items { collision.addItem(i) }
        animator.addBehavior(collision)
        return (animator, items)
    }

    /// The mean overlap area of all pairs of the (unrotated-bounds) items, in pt²: each item
    /// as the axis-aligned square of its center, a bound that is exact for unturned items.
    static func meanOverlap(_ items: [BasicDynamicItem]) -> Double {
        let s = Double(side)
        var sum = 0.0
        for i in 0..<items.count {
            let a = items[i].center
            for j in (i + 1)..<items.count {
                let b = items[j].center
                let dx = s - abs(Double(a.x - b.x)), dy = s - abs(Double(a.y - b.y))
                if dx > 0 && dy > 0 { sum += dx * dy }
            }
        }
        return sum / Double(items.count * (items.count - 1) / 2)
    }

    static func budgetDiagnostics(_ animator: DynamicAnimator) -> Int {
        animator.diagnostics.filter { $0.kind == .crowdLimited }.count
    }

    @Test func aHeapOnOnePointIsBoundedReportedOnceAndSpreads() {
        let (animator, items) = Self.heap()
        #expect(Self.meanOverlap(items) == Double(Self.side * Self.side))
        animator.step()
        // Every pair of equal dynamic items is crowding for both: at most n·limit/2 of them.
        let bound = Self.count * Int(World.crowdLimit) / 2
        #expect(animator.statistics.contacts <= bound)
        #expect(animator.engineWorld.maximumCrowdCount <= Int(World.crowdLimit))
        #expect(animator.engineWorld.lastStepCrowdLimited > 0)
        #expect(Self.budgetDiagnostics(animator) == 1)
        let initial = Self.meanOverlap(items)
        var limitedSteps = 0
        for _ in 0..<180 {
            animator.step()
            #expect(animator.statistics.contacts <= bound)
            if animator.engineWorld.lastStepCrowdLimited > 0 { limitedSteps += 1 }
        }
        // Spread: the pairs' mean overlap falls below a hundredth of a full overlap (initially
        // all 400 pt²; the pushing is at most 3 m/s = 300 pt/s, so 3 s are ample), and the heap
        // no longer needs the budget by the end.
        let final = Self.meanOverlap(items)
        #expect(final < 0.01 * initial)
        #expect(animator.engineWorld.lastStepCrowdLimited == 0)
        #expect(limitedSteps < 180)
        #expect(Self.budgetDiagnostics(animator) == 1)
    }

    /// The budget decides in key order after the parallel searches: the heap evolves bit for bit
    /// alike on 1, 2 and 3 threads.
    @Test func aHeapEvolvesAlikeOnOneTwoAndThreeThreads() {
        var hashes: [UInt64] = []
        for workers in 1...3 {
            let (animator, items) = Self.heap(workers: workers)
            for _ in 0..<20 { animator.step() }
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for i in items {
                for v in [i.center.x, i.center.y, i.angle] {
                    h = (h ^ UInt64(Double(v).bitPattern)) &* 0x100_0000_01b3
                }
            }
            hashes.append(h)
        }
        #expect(hashes[0] == hashes[1] && hashes[1] == hashes[2])
    }
}
