import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// Long runs with items joining and leaving all the time: memory stays bounded and removed items
/// are released.
///
/// The full soak (10 000 items, 60 simulated seconds) is too slow for the default suite:
///
///     DYNAMICS_SOAK=1 swift test -c release --filter Soak
///
/// It prints the peak resident memory (VmHWM) and the resident memory after each half.
@Suite("Soak", .serialized)
struct SoakTests {
    /// Resident memory now and at its peak, in bytes (Linux `/proc/self/status`; nil elsewhere).
    static func memory() -> (rss: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
        }
        guard let rss = field("VmRSS"), let peak = field("VmHWM") else { return nil }
        return (rss, peak)
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    /// What a run measured.
    struct Report {
        var steps = 0
        var added = 0
        var removed = 0
        var rssAfterFirstHalf: Int?
        var rssAfterSecondHalf: Int?
        var peak: Int?
        var released = 0
        var stillAlive = 0
        /// Engine and animator storage after each half: (bodies, shapes, contacts, record slots).
        var storage: [(Int, Int, Int, Int)] = []
    }

    /// `items` items in a box under gravity and collisions for `seconds` simulated seconds; every
    /// step the `churn` oldest items leave and as many new ones drop in from the top.
    ///
    /// With `pile`, the box is as wide as a pile of the items a few dozen deep and the items pile
    /// up within a second (every contact solved every step: the expensive case); without, the box
    /// is 12 000 pt tall and most items are still falling at 5 s (cheap enough for debug builds).
    static func soak(items count: Int, seconds: Double, churn: Int, pile: Bool) -> Report {
        var rng = SplitMix64(seed: 7)
        let width = pile ? max(600, (Double(count) * 400).squareRoot().rounded()) : 1000
        let height = pile ? width * 0.75 : 12_000
        let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: width, height: height))
        let gravity = GravityBehavior()
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        let material = DynamicItemBehavior()
        material.friction = 0.3
        material.elasticity = 0.1
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        animator.addBehavior(material)

        var live: [BasicDynamicItem] = []
        var head = 0   // live[head...] are the items in the world, oldest first
        var gone: [Weak] = []
        var report = Report()
        func add() {
            let size = CGSize(width: Double.random(in: 6...14, using: &rng), height: Double.random(in: 6...14, using: &rng))
            let item = BasicDynamicItem(center: CGPoint(x: Double.random(in: 20...(width - 20), using: &rng),
                                                        y: Double.random(in: 20...(height * 0.6), using: &rng)),
                                        size: size, collisionBoundsType: Bool.random(using: &rng) ? .rectangle : .ellipse)
            gravity.addItem(item)
            collision.addItem(item)
            material.addItem(item)
            if Int.random(in: 0..<10, using: &rng) == 0 {
                material.addLinearVelocity(CGPoint(x: Double.random(in: -200...200, using: &rng), y: 0), for: item)
            }
            live.append(item)
            report.added += 1
        }
        func remove() {
            let item = live[head]
            head += 1
            gravity.removeItem(item)
            collision.removeItem(item)
            material.removeItem(item)
            gone.append(Weak(item))
            report.removed += 1
        }
        for _ in 0..<count { add() }

        let totalSteps = Int((seconds / animator.stepDuration).rounded())
        for step in 1...totalSteps {
            for _ in 0..<churn { remove(); add() }
            animator.step()
            report.steps += 1
            // Drop our own references to removed items now and then (as an app would).
            if head > 4096 { live.removeFirst(head); head = 0 }
            if step == totalSteps / 2 || step == totalSteps {
                let c = animator.world.storageCounts
                report.storage.append((c.bodies, c.shapes, c.contacts, animator.recordSlots.count))
                let m = memory()
                if step == totalSteps / 2 { report.rssAfterFirstHalf = m?.rss } else { report.rssAfterSecondHalf = m?.rss; report.peak = m?.peak }
            }
        }
        live.removeFirst(head)
        head = 0
        #expect(animator.records.count == count)
        #expect(animator.world.validate().isEmpty)
        #expect(animator.diagnostics.isEmpty, "\(animator.diagnostics.prefix(3))")
        report.released = gone.filter { $0.object == nil }.count
        report.stillAlive = gone.count - report.released
        return report
    }

    final class Weak {
        weak var object: BasicDynamicItem?
        init(_ object: BasicDynamicItem) { self.object = object }
    }

    static func check(_ r: Report, items: Int, strictMemory: Bool, label: String) {
        print("""
            soak \(label): \(items) items, \(r.steps) steps, \(r.added) added, \(r.removed) removed, \
            \(r.released) released; RSS after first half \(r.rssAfterFirstHalf.map(megabytes) ?? "?"), \
            after second half \(r.rssAfterSecondHalf.map(megabytes) ?? "?"), peak (VmHWM) \(r.peak.map(megabytes) ?? "?"); \
            storage (bodies, shapes, contacts, slots) \(r.storage)
            """)
        // Removed items are released: nothing in the animator keeps them.
        #expect(r.stillAlive == 0, "\(r.stillAlive) removed items are still alive")
        // The engine's and animator's arrays stop growing once the population is steady (free
        // slots are reused).
        if r.storage.count == 2 {
            let (a, b) = (r.storage[0], r.storage[1])
            #expect(b.0 <= a.0 + items / 10 && b.1 <= a.1 + items / 10 && b.3 <= a.3 + items / 10, "storage grew: \(a) → \(b)")
            #expect(b.2 <= 2 * a.2 + 1000, "contacts grew: \(a.2) → \(b.2)")
        }
        // Resident memory after the second half is within a small factor of the first half's.
        // In the default suite other tests share the process, so only a loose bound holds there.
        if let first = r.rssAfterFirstHalf, let second = r.rssAfterSecondHalf {
            let factor = strictMemory ? 1.25 : 2.0
            #expect(Double(second) <= factor * Double(first) + 32 * 1_048_576,
                    "RSS grew from \(megabytes(first)) to \(megabytes(second))")
        }
    }

    /// Always on: 1 000 items for 5 simulated seconds, 4 replaced every step (1 200 in all), in a
    /// tall box (see `soak`).
    @Test func shortSoakStaysBoundedAndReleasesItems() {
        let r = Self.soak(items: 1000, seconds: 5, churn: 4, pile: false)
        Self.check(r, items: 1000, strictMemory: false, label: "short")
    }

    /// `DYNAMICS_SOAK=1`: 10 000 items piled up for 60 simulated seconds, 10 replaced every step
    /// (36 000 in all).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["DYNAMICS_SOAK"] == "1"))
    func fullSoak() {
        let r = Self.soak(items: 10_000, seconds: 60, churn: 10, pile: true)
        Self.check(r, items: 10_000, strictMemory: true, label: "full")
    }
}
