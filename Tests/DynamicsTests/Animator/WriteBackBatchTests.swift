import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// The batched write-back (issue 27.4): it fetches 32 moved items' records before writing them,
/// and sets a ``BasicDynamicItem``'s center and transform through the class instead of the
/// protocol. Neither may change what is written, to which item, or in which order.
@Suite struct WriteBackBatchTests {
    /// One write the animator made: which item, and which property.
    enum Write: Equatable {
        case center(Int)
        case transform(Int)
    }

    /// An item of its own type (the write-back's protocol path) that logs every write, in order,
    /// into a log shared by all items of one animator.
    final class LoggingItem: DynamicItem {
        let id: Int
        let log: Log
        var center: CGPoint { didSet { log.writes.append(.center(id)) } }
        let bounds: CGRect
        var transform: CGAffineTransform = .identity { didSet { log.writes.append(.transform(id)) } }

        init(id: Int, center: CGPoint, size: CGSize, log: Log) {
            self.id = id
            self.log = log
            self.center = center
            bounds = CGRect(origin: .zero, size: size)
        }
    }

    final class Log {
        var writes: [Write] = []
    }

    /// 70 items (more than two batches of 32) in a 10 × 7 grid, each spun at its own rate, under
    /// gravity and colliding with each other and the bounds: they fall, turn and tumble.
    static func tumblingScene(_ make: (Int, CGPoint, CGSize) -> any DynamicItem) -> (DynamicAnimator, [any DynamicItem]) {
        let animator = validatingAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 400, height: 300))
        var items: [any DynamicItem] = []
        for k in 0..<70 {
            let center = CGPoint(x: 20 + 36 * Double(k % 10), y: 20 + 30 * Double(k / 10))
            items.append(make(k, center, CGSize(width: 14 + Double(k % 3) * 3, height: 12)))
        }
        let gravity = GravityBehavior(items: items)
        let collision = CollisionBehavior(items: items)
        collision.translatesReferenceBoundsIntoBoundary = true
        let spin = DynamicItemBehavior(items: items)
        for (k, item) in items.enumerated() { spin.addAngularVelocity(CGFloat(k % 7) - 3, for: item) }
        for behavior in [gravity, collision, spin] as [DynamicBehavior] { animator.addBehavior(behavior) }
        return (animator, items)
    }

    static func bits(_ t: CGAffineTransform) -> [UInt64] {
        [t.a, t.b, t.c, t.d, t.tx, t.ty].map { UInt64(Double($0).bitPattern) }
    }

    static func bits(_ p: CGPoint) -> [UInt64] { [UInt64(Double(p.x).bitPattern), UInt64(Double(p.y).bitPattern)] }

    /// BasicDynamicItems (written through the class) and items of another type (written through
    /// the protocol) in the same scene end every one of 120 steps with the same centers and
    /// transforms, bit for bit, and each item's transform is exactly
    /// `CGAffineTransform(rotationAngle:)` of the angle the frame report gives.
    @Test func basicItemsAndOtherItemsAreWrittenBitForBitAlike() {
        let (basicAnimator, basics) = Self.tumblingScene { _, center, size in
            BasicDynamicItem(center: center, size: size)
        }
        let log = Log()
        let (otherAnimator, others) = Self.tumblingScene { k, center, size in
            LoggingItem(id: k, center: center, size: size, log: log)
        }
        var report: FrameReport?
        basicAnimator.addFrameObserver { report = $0 }
        var turned = 0
        for step in 1...120 {
            basicAnimator.step()
            otherAnimator.step()
            for (a, b) in zip(basics, others) {
                #expect(Self.bits(a.center) == Self.bits(b.center), "step \(step)")
                #expect(Self.bits(a.transform) == Self.bits(b.transform), "step \(step)")
            }
            guard let items = report?.items else { Issue.record("no frame report"); return }
            for (item, shown) in zip(basics, items) {
                #expect(Self.bits(item.center) == Self.bits(shown.center), "step \(step)")
                let rotation = CGAffineTransform(rotationAngle: shown.angle)
                #expect(Self.bits(item.transform) == Self.bits(rotation), "step \(step)")
            }
            turned += items.filter { abs($0.angle) > 0.1 }.count
        }
        #expect(turned > 70 * 60, "the items should turn: \(turned) item-steps past 0.1 rad")
        #expect(validationErrors(of: basicAnimator).isEmpty)
        #expect(validationErrors(of: otherAnimator).isEmpty)
    }

    /// Every step writes each item whose body the step moved exactly once, center then transform,
    /// in the order the engine solved the bodies (its list of moved bodies), across batch
    /// boundaries.
    @Test func writesFollowTheEngineOrderOncePerMovedItem() {
        let log = Log()
        let (animator, items) = Self.tumblingScene { k, center, size in
            LoggingItem(id: k, center: center, size: size, log: log)
        }
        var moved: [MovedBody] = []
        var writtenSteps = 0
        for step in 1...240 {
            log.writes.removeAll()
            animator.step()
            animator.engineWorld.collectMovedBodies(into: &moved)
            let order = moved.compactMap { m -> Int? in
                guard let slot = EngineOwner(body: m.userData).itemSlot,
                      let item = animator.recordSlots[slot]?.item as? LoggingItem
                else { return nil }
                return item.id
            }
            // a moved body whose pose did not change (it is about to sleep) is not written
            let expected = order.flatMap { [Write.center($0), .transform($0)] }
            let written = log.writes
            #expect(written.count <= expected.count, "step \(step)")
            var next = expected.makeIterator()
            var inOrder = true
            for w in written {
                var found = false
                while let e = next.next() { if e == w { found = true; break } }
                if !found { inOrder = false; break }
            }
            #expect(inOrder, "step \(step): writes out of the engine's order")
            for k in stride(from: 0, to: written.count, by: 2) {
                guard case .center(let id) = written[k], k + 1 < written.count,
                      written[k + 1] == .transform(id) else {
                    Issue.record("step \(step): write \(k) is not a center followed by its transform")
                    break
                }
            }
            #expect(order.count <= items.count)
            if written.count == 2 * items.count { writtenSteps += 1 }
        }
        #expect(writtenSteps > 60, "steps that wrote all 70 items: \(writtenSteps)")
        #expect(validationErrors(of: animator).isEmpty)
    }

    /// An item that only slides (rotation not allowed) keeps being given its transform at every
    /// step, rebuilt from the cache bit for bit: a transform set by hand (a scale) is replaced by
    /// the pure rotation the next step, exactly `CGAffineTransform(rotationAngle: 0)`.
    @Test func aSlidingItemIsGivenItsCachedRotationEveryStep() {
        let animator = validatingAnimator()
        let log = Log()
        let item = LoggingItem(id: 0, center: CGPoint(x: 0, y: 0), size: CGSize(width: 10, height: 10), log: log)
        let basic = BasicDynamicItem(center: CGPoint(x: 50, y: 0), size: CGSize(width: 10, height: 10))
        let material = DynamicItemBehavior(items: [item, basic])
        material.allowsRotation = false
        animator.addBehavior(material)
        animator.addBehavior(GravityBehavior(items: [item, basic]))
        let rotation = Self.bits(CGAffineTransform(rotationAngle: 0))
        for step in 1...10 {
            if step == 5 {
                item.transform = CGAffineTransform(scaleX: 2, y: 2)
                basic.transform = CGAffineTransform(scaleX: 2, y: 2)
                log.writes.removeAll()
            }
            animator.step()
            #expect(Self.bits(item.transform) == rotation, "step \(step)")
            #expect(Self.bits(basic.transform) == rotation, "step \(step)")
        }
        #expect(log.writes == Array(repeating: [Write.center(0), .transform(0)], count: 6).flatMap { $0 })
        #expect(item.center.y > 0 && basic.center.y == item.center.y)
    }
    /// On two threads the write-back of a large crowd is split across the threads, except for
    /// the items whose writes may be seen (an item of the app's own class, a group's members),
    /// which the caller writes afterwards. 2 600 falling, spinning items — plain items, logging
    /// items and groups of two plain items — end each of 40 steps with the same centers and
    /// transforms, bit for bit, on two threads as on one, and the logging items are written in
    /// the same order.
    @Test func twoThreadsWriteEveryItemAsOneThreadDoes() {
        let (one, oneItems, oneLog) = Self.crowd(threads: 1)
        let (two, twoItems, twoLog) = Self.crowd(threads: 2)
        #expect(oneItems.count > 2 * DynamicAnimator.writeBackPart)
        for step in 1...40 {
            oneLog.writes.removeAll()
            twoLog.writes.removeAll()
            one.step()
            two.step()
            var same = true
            for (a, b) in zip(oneItems, twoItems) {
                same = same && Self.bits(a.center) == Self.bits(b.center)
                    && Self.bits(a.transform) == Self.bits(b.transform)
            }
            #expect(same, "step \(step): an item differs between one and two threads")
            #expect(oneLog.writes.count == 2 * 371, "step \(step): every logging item is written")
            let sameWrites = twoLog.writes == oneLog.writes
            #expect(sameWrites, "step \(step): the logging items were written differently")
        }
        // They fell and turned: 160 sub-steps of h = 1/240 s at 1 000 pt/s² take an item
        // g·h²·160·161/2 = 223.6 pt down (½·g·t² = 222.2 pt), and four in five items spin at 1 or
        // 2 rad/s, 0.67 or 1.33 rad in the 2/3 s.
        #expect(abs(oneItems[0].center.y - 10 - 1_000 * 160 * 161 / (2 * 240 * 240)) < 0.01)
        #expect(oneItems.filter { abs(atan2($0.transform.b, $0.transform.a)) > 0.5 }.count > 2_000)
    }

    static func crowd(threads: Int) -> (DynamicAnimator, [any DynamicItem], Log) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1024, height: 768),
                                       workerCount: threads)
        let log = Log()
        var items: [any DynamicItem] = [], members: [any DynamicItem] = []
        for k in 0..<2_600 {
            let center = CGPoint(x: 10 + 19.5 * Double(k % 52), y: 10 + 15 * Double(k / 52))
            let size = CGSize(width: 6 + Double(k % 3), height: 5)
            if k % 7 == 3 {
                items.append(LoggingItem(id: k, center: center, size: size, log: log))
            } else if k % 13 == 5 {
                let beside = CGPoint(x: center.x + 8, y: center.y)
                let pair = [BasicDynamicItem(center: center, size: size), BasicDynamicItem(center: beside, size: size)]
                members += pair
                items.append(DynamicItemGroup(items: pair))
            } else {
                items.append(BasicDynamicItem(center: center, size: size))
            }
        }
        let spin = DynamicItemBehavior(items: items)
        for (k, item) in items.enumerated() { spin.addAngularVelocity(CGFloat(k % 5) - 2, for: item) }
        animator.addBehavior(GravityBehavior(items: items))
        animator.addBehavior(spin)
        return (animator, items + members, log)
    }

    /// The same crowd shown by a display link at 50 Hz (steps of 1/60 s): most frames end inside
    /// a step, whose write-back then notes each moved item's pose for presentation (and runs on
    /// the caller alone: the presentation pass after it reads the same records and items there).
    /// On two threads as on one, the items show the same poses, bit for bit, the logging items are
    /// written in the same order, and the presentation list holds the same records in the same
    /// order.
    @Test func twoThreadsNoteThePresentationAsOneThreadDoes() {
        let (one, oneItems, oneLog) = Self.crowd(threads: 1)
        let (two, twoItems, twoLog) = Self.crowd(threads: 2)
        var noted = 0
        for frame in 1...30 {
            oneLog.writes.removeAll()
            twoLog.writes.removeAll()
            one.advance(by: 1.0 / 50)
            two.advance(by: 1.0 / 50)
            var same = true
            for (a, b) in zip(oneItems, twoItems) {
                same = same && Self.bits(a.center) == Self.bits(b.center)
                    && Self.bits(a.transform) == Self.bits(b.transform)
            }
            #expect(same, "frame \(frame): an item shows a different pose on two threads")
            let sameWrites = twoLog.writes == oneLog.writes
            #expect(sameWrites, "frame \(frame): the logging items were written differently")
            let sameOrder = one.presenting.map(\.slot) == two.presenting.map(\.slot)
            #expect(sameOrder, "frame \(frame): the presentation lists differ")
            if one.isNotingPresentation { noted += 1 }
            #expect(one.presenting.count > DynamicAnimator.writeBackPart || !one.isNotingPresentation)
        }
        // most frames ended inside a step and noted the moved items
        #expect(noted >= 20)
    }
}
