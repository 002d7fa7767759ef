import Dynamics
import Foundation

/// The setup-cost scenes of `bench --setup` (Benchmarks/README.md): what it costs to build and take
/// apart a world of n things through the public API — items, behaviours, child behaviours — and
/// what the first step of a heap of n items stacked on one point costs. Each is run at several n,
/// so a cost per operation that stays flat (or grows like log n) shows the work is O(n log n) at
/// worst, and one that grows with n shows a quadratic part.
package enum SetupScenes {
    /// One timed phase of a setup scene.
    package struct Phase {
        /// What was timed ("add", "remove", "first step" …).
        package var name: String
        /// How many structural operations the phase made (1 for a step).
        package var operations: Int
        /// Wall-clock seconds.
        package var seconds: Double
    }

    /// One run of a scene at one n.
    package struct Result {
        package var scene: String
        package var n: Int
        package var phases: [Phase]
        /// Further figures of the scene (contacts after the first step, the heap's spread …).
        package var notes: [String] = []
    }

    /// A scene: a name, what it measures and how to run it at a given n.
    package struct Scene: Sendable {
        package var name: String
        package var summary: String
        /// Whether the scene has no n (it is run once, at the smallest).
        package var isFixed = false
        package var run: @Sendable (Int) -> Result
    }

    /// Every setup scene, in the order `bench --setup` runs them.
    package static let all: [Scene] = [snaps, behaviors, behaviorsInAction, children, items, boundaries, churn, velocities, spawns,
                                       chain, boundary, path, stacked]

    static let bounds = CGRect(x: 0, y: 0, width: 1024, height: 768)

    /// Times `body` in seconds.
    static func time(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        let d = clock.now - start
        return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    /// n items on a grid of 16 pt pitch (none overlapping).
    static func gridItems(_ n: Int) -> [BasicDynamicItem] {
        let columns = max(1, Int(Double(n).squareRoot()))
        return (0..<n).map { k in
            BasicDynamicItem(center: CGPoint(x: 16 * Double(k % columns), y: 16 * Double(k / columns)),
                             size: CGSize(width: 10, height: 10))
        }
    }

    /// snap_add: one `SnapBehavior` per item, each added to the animator on its own, then the
    /// first step (which builds n bodies and n joints).
    static let snaps = Scene(name: "snap_add", summary: "n SnapBehaviors added one by one, then the first step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let items = gridItems(n)
        let snaps = items.map { SnapBehavior(item: $0, snapTo: CGPoint(x: $0.center.x + 3, y: $0.center.y)) }
        let add = time { for s in snaps { animator.addBehavior(s) } }
        let step = time { animator.step() }
        let remove = time { for s in snaps { animator.removeBehavior(s) } }
        let last = time { animator.step() }
        return Result(scene: "snap_add", n: n, phases: [
            Phase(name: "add", operations: n, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "remove", operations: n, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
        ])
    }

    /// behavior_add_remove: n gravity behaviours of one item each added between steps, a step,
    /// then removed in the order added (the first one first), and a step.
    static let behaviors = Scene(name: "behavior_add_remove", summary: "n GravityBehaviors added, a step, removed first-first, a step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let gravities = gridItems(n).map { GravityBehavior(items: [$0]) }
        let add = time { for g in gravities { animator.addBehavior(g) } }
        let step = time { animator.step() }
        let remove = time { for g in gravities { animator.removeBehavior(g) } }
        let last = time { animator.step() }
        return Result(scene: "behavior_add_remove", n: n, phases: [
            Phase(name: "add", operations: n, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "remove", operations: n, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
        ])
    }

    /// behavior_action: the same from inside an action: one step's action adds n gravity
    /// behaviours (applied at the end of that step), the next step's action removes them.
    static let behaviorsInAction = Scene(name: "behavior_action", summary: "n GravityBehaviors added by one action, removed by the next") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let gravities = gridItems(n).map { GravityBehavior(items: [$0]) }
        let driver = DynamicBehavior()
        var stage = 0
        driver.action = { [unowned animator] in
            if stage == 0 { for g in gravities { animator.addBehavior(g) } }
            if stage == 1 { for g in gravities { animator.removeBehavior(g) } }
            stage += 1
        }
        animator.addBehavior(driver)
        let add = time { animator.step() }
        let remove = time { animator.step() }
        let last = time { animator.step() }
        return Result(scene: "behavior_action", n: n, phases: [
            Phase(name: "step adding", operations: n, seconds: add), Phase(name: "step removing", operations: n, seconds: remove),
            Phase(name: "step after", operations: n, seconds: last),
        ])
    }

    /// child_add_remove: one composite behaviour in the animator gets n child gravity behaviours
    /// of one item each, a step, then loses them in the order added, and a step.
    static let children = Scene(name: "child_add_remove", summary: "n child behaviours added to one parent, a step, removed first-first, a step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let parent = DynamicBehavior()
        animator.addBehavior(parent)
        let gravities = gridItems(n).map { GravityBehavior(items: [$0]) }
        let add = time { for g in gravities { parent.addChildBehavior(g) } }
        let step = time { animator.step() }
        let remove = time { for g in gravities { parent.removeChildBehavior(g) } }
        let last = time { animator.step() }
        return Result(scene: "child_add_remove", n: n, phases: [
            Phase(name: "add", operations: n, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "remove", operations: n, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
        ])
    }

    /// item_add_remove: n items added one by one to a gravity and a collision behaviour already
    /// in the animator, a step, then removed from both in the order added, and a step.
    static let items = Scene(name: "item_add_remove", summary: "n items added to gravity + collision, a step, removed first-first, a step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let gravity = GravityBehavior(), collision = CollisionBehavior()
        animator.addBehavior(gravity)
        animator.addBehavior(collision)
        let items = gridItems(n)
        let add = time { for i in items { gravity.addItem(i); collision.addItem(i) } }
        let step = time { animator.step() }
        let remove = time { for i in items { gravity.removeItem(i); collision.removeItem(i) } }
        let last = time { animator.step() }
        return Result(scene: "item_add_remove", n: n, phases: [
            Phase(name: "add", operations: 2 * n, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "remove", operations: 2 * n, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
        ])
    }

    /// boundary_add_remove: n boundaries of one segment each, with distinct identifiers, added one
    /// by one to a collision behaviour (with one item) in the animator; the first step (which
    /// builds their n static bodies); 100 times one boundary replaced (same identifier) and a step,
    /// which should cost what one boundary costs, not what n do; then all removed in a shuffled
    /// order (seeded) and a step.
    static let boundaries = Scene(name: "boundary_add_remove", summary: "n one-segment boundaries added, a step, 100 × (replace one, step), removed shuffled, a step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = BasicDynamicItem(center: CGPoint(x: -100, y: -100), size: CGSize(width: 10, height: 10))
        let collision = CollisionBehavior(items: [item])
        animator.addBehavior(collision)
        let columns = max(1, Int(Double(n).squareRoot()))
        func start(_ k: Int) -> CGPoint { CGPoint(x: 16 * Double(k % columns), y: 16 * Double(k / columns)) }
        let add = time {
            for k in 0..<n {
                let p = start(k)
                collision.addBoundary(withIdentifier: k, from: p, to: CGPoint(x: p.x + 10, y: p.y))
            }
        }
        let step = time { animator.step() }
        let plain = time { for _ in 0..<100 { animator.step() } }
        let churn = time {
            for r in 0..<100 {
                let k = (r * 7_919) % n, p = start(k)
                collision.addBoundary(withIdentifier: k, from: p, to: CGPoint(x: p.x + 10, y: p.y + 1))
                animator.step()
            }
        }
        var order = Array(0..<n)
        var generator = SplitMix64Generator(seed: 29)
        order.shuffle(using: &generator)
        let remove = time { for k in order { collision.removeBoundary(withIdentifier: k) } }
        let last = time { animator.step() }
        return Result(scene: "boundary_add_remove", n: n, phases: [
            Phase(name: "add", operations: n, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "100 steps", operations: 100, seconds: plain),
            Phase(name: "replace+step", operations: 100, seconds: churn),
            Phase(name: "remove", operations: n, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
        ], notes: ["boundaries left: \(collision.boundaryIdentifiers.count)"])
    }

    /// boundary_churn: n one-segment boundaries (as boundary_add_remove) beside 16 items resting
    /// on a floor boundary under gravity; 200 plain steps; then 200 frames that each remove the
    /// oldest boundary, add a new one (a new identifier, a few points from where the removed one
    /// was) and step. The frame should cost a plain step and one boundary's worth, flat in n.
    static let churn = Scene(name: "boundary_churn", summary: "n boundaries; 200 × (remove one, add one, step)") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let items = (0..<16).map { k in
            BasicDynamicItem(center: CGPoint(x: -390 + 20 * Double(k), y: -40), size: CGSize(width: 10, height: 10))
        }
        let collision = CollisionBehavior(items: items)
        animator.addBehavior(collision)
        animator.addBehavior(GravityBehavior(items: items))
        collision.addBoundary(withIdentifier: "floor", from: CGPoint(x: -400, y: -20), to: CGPoint(x: -50, y: -20))
        let columns = max(1, Int(Double(n).squareRoot()))
        func start(_ k: Int) -> CGPoint { CGPoint(x: 16 * Double(k % columns), y: 16 * Double(k / columns)) }
        for k in 0..<n {
            let p = start(k)
            collision.addBoundary(withIdentifier: k, from: p, to: CGPoint(x: p.x + 10, y: p.y))
        }
        animator.step()
        let plain = time { for _ in 0..<200 { animator.step() } }
        let frames = time {
            for r in 0..<200 {
                // boundary r is the oldest: one of the first n, or the one frame r − n added
                let p = start(r % n)
                collision.removeBoundary(withIdentifier: r)
                collision.addBoundary(withIdentifier: n + r, from: CGPoint(x: p.x + 3, y: p.y + 5), to: CGPoint(x: p.x + 13, y: p.y + 5))
                animator.step()
            }
        }
        let resting = items.filter { abs($0.center.y - (-25)) < 1 }.count
        return Result(scene: "boundary_churn", n: n, phases: [
            Phase(name: "200 steps", operations: 200, seconds: plain),
            Phase(name: "churn frames", operations: 200, seconds: frames),
        ], notes: ["items resting on the floor: \(resting) of 16", "boundaries: \(collision.boundaryIdentifiers.count)"])
    }

    /// velocity_queue: one `DynamicItemBehavior` of n items, not yet in an animator, is handed a
    /// linear velocity for each item twice (they wait, summed per item); added to the animator,
    /// the first step applies them all.
    static let velocities = Scene(name: "velocity_queue", summary: "2n addLinearVelocity calls for n items waiting outside an animator, then the first step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let items = gridItems(n)
        let behavior = DynamicItemBehavior(items: items)
        let queue = time {
            for i in items { behavior.addLinearVelocity(CGPoint(x: 1, y: 0), for: i) }
            for i in items { behavior.addLinearVelocity(CGPoint(x: 0, y: 1), for: i) }
        }
        let step = time { animator.addBehavior(behavior); animator.step() }
        return Result(scene: "velocity_queue", n: n, phases: [
            Phase(name: "queue", operations: 2 * n, seconds: queue), Phase(name: "first step", operations: n, seconds: step),
        ])
    }

    /// velocity_spawn: the usual way to launch items: each of n items is added to a collision
    /// behaviour and an item behaviour already in the animator and at once given a linear
    /// velocity (before the next step); then the first step.
    static let spawns = Scene(name: "velocity_spawn", summary: "n items each added to collision + item behaviours and given a velocity, then the first step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let collision = CollisionBehavior(), behavior = DynamicItemBehavior()
        animator.addBehavior(collision)
        animator.addBehavior(behavior)
        let items = gridItems(n)
        let spawn = time {
            for i in items {
                collision.addItem(i)
                behavior.addItem(i)
                behavior.addLinearVelocity(CGPoint(x: 10, y: 0), for: i)
            }
        }
        let step = time { animator.step() }
        return Result(scene: "velocity_spawn", n: n, phases: [
            Phase(name: "spawn", operations: n, seconds: spawn), Phase(name: "first step", operations: n, seconds: step),
        ])
    }

    /// child_chain: a chain of n behaviours, each the only child of the one before, grown at its
    /// deep end while its top is in the animator (each a gravity of one item); the first step;
    /// the chain taken apart from the deep end; a step; then the chain released (its last
    /// reference dropped), which must not recurse n deep.
    static let chain = Scene(name: "child_chain", summary: "a chain of n nested child behaviours grown at its deep end in the animator, a step, taken apart deepest first, a step, released") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let links: [GravityBehavior] = gridItems(n).map { GravityBehavior(items: [$0]) }
        animator.addBehavior(links[0])
        let add = time { for k in 1..<n { links[k - 1].addChildBehavior(links[k]) } }
        let step = time { animator.step() }
        let remove = time { for k in stride(from: n - 1, to: 0, by: -1) { links[k - 1].removeChildBehavior(links[k]) } }
        let last = time { animator.step() }
        // A fresh chain outside any animator, held by its top link only, released at once.
        var top: DynamicBehavior? = DynamicBehavior()
        do {
            var deepest = top!
            for _ in 1..<n {
                let link = DynamicBehavior()
                deepest.addChildBehavior(link)
                deepest = link
            }
        }
        let release = time { top = nil }
        _ = top
        return Result(scene: "child_chain", n: n, phases: [
            Phase(name: "add", operations: n - 1, seconds: add), Phase(name: "first step", operations: n, seconds: step),
            Phase(name: "remove", operations: n - 1, seconds: remove), Phase(name: "step after", operations: n, seconds: last),
            Phase(name: "release", operations: n, seconds: release),
        ])
    }

    /// boundary_polyline: one boundary path of n segments (a zigzag floor across the bounds), added
    /// to a collision behaviour with one item, then the first step (which builds the n segment
    /// shapes of the boundary's static body and its grid cells).
    static let boundary = Scene(name: "boundary_polyline", summary: "one boundary path of n segments, then the first step") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = BasicDynamicItem(center: CGPoint(x: 512, y: 100), size: CGSize(width: 20, height: 20))
        let collision = CollisionBehavior(items: [item])
        let floor = BezierPath()
        floor.move(to: CGPoint(x: 0, y: 700))
        for k in 1...n { floor.addLine(to: CGPoint(x: 1024 * Double(k) / Double(n), y: k % 2 == 0 ? 700 : 701)) }
        let add = time {
            collision.addBoundary(withIdentifier: "floor", for: floor)
            animator.addBehavior(collision)
        }
        let step = time { animator.step() }
        return Result(scene: "boundary_polyline", n: n, phases: [
            Phase(name: "add", operations: 1, seconds: add), Phase(name: "first step", operations: n, seconds: step),
        ])
    }

    /// stacked: n items of 20 × 20 pt created on one point in one collision behaviour, no
    /// gravity: the first step (every pair of them overlaps completely: n²/2 pairs without the
    /// engine's contact budget), then 59 more (9 from n = 100 000 on, to keep the run short);
    /// notes the engine's pairs after the first step and the mean distance of the items from
    /// their centroid at the end (0 at the start: the heap spreading out).
    static let stacked = Scene(name: "stacked", summary: "n 20 pt items created on one point: the first step, then up to 1 s") { n in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let collision = CollisionBehavior()
        let items = (0..<n).map { _ in BasicDynamicItem(center: CGPoint(x: 512, y: 384), size: CGSize(width: 20, height: 20)) }
        for i in items { collision.addItem(i) }
        animator.addBehavior(collision)
        let first = time { animator.step() }
        let pairs = animator.statistics.contacts
        let more = n >= 100_000 ? 9 : 59
        let rest = time { for _ in 0..<more { animator.step() } }
        return Result(scene: "stacked", n: n, phases: [
            Phase(name: "first step", operations: 1, seconds: first), Phase(name: "\(more) steps", operations: more, seconds: rest),
        ], notes: ["pairs after step 1: \(pairs)", String(format: "spread after %d steps: %.1f pt", more + 1, meanSpread(items))])
    }

    /// path_item: one item of 10⁶ × 10⁶ pt whose collision path is a closed ring of 40 cubic
    /// curves reaching 4.9·10⁵ pt from its center (inside the 5·10⁵ pt the animator accepts),
    /// each bulging outward by a tenth of its chord: added, then the first step (which flattens,
    /// checks and hulls the path). Run once; n is not used.
    static let path = Scene(name: "path_item", summary: "one item whose path is 40 cubic curves 4.9e5 pt out", isFixed: true) { _ in
        let animator = DynamicAnimator(referenceBounds: bounds)
        let item = BasicDynamicItem(center: CGPoint(x: 512, y: 384), size: CGSize(width: 1e6, height: 1e6), collisionBoundsType: .path)
        let outline = BezierPath()
        let radius = 4.4e5, count = 40
        func point(_ k: Int, _ r: Double) -> CGPoint {
            let a = 2 * Double.pi * Double(k) / Double(count)
            return CGPoint(x: r * cos(a), y: r * sin(a))
        }
        outline.move(to: point(0, radius))
        for k in 0..<count {
            let a = 2 * Double.pi * Double(k) / Double(count), b = 2 * Double.pi * Double(k + 1) / Double(count)
            let bulge = radius * 1.1
            outline.addCurve(to: point(k + 1, radius),
                             controlPoint1: CGPoint(x: bulge * cos(a + (b - a) / 3), y: bulge * sin(a + (b - a) / 3)),
                             controlPoint2: CGPoint(x: bulge * cos(a + 2 * (b - a) / 3), y: bulge * sin(a + 2 * (b - a) / 3)))
        }
        outline.close()
        item.collisionBoundingPath = outline
        let gravity = GravityBehavior(items: [item])
        let add = time { animator.addBehavior(gravity) }
        let step = time { animator.step() }
        return Result(scene: "path_item", n: 1, phases: [
            Phase(name: "add", operations: 1, seconds: add), Phase(name: "first step", operations: 1, seconds: step),
        ], notes: ["diagnostics: \(animator.diagnostics.count)"])
    }

    /// The mean distance of the items' centers from their centroid, in points.
    package static func meanSpread(_ items: [any DynamicItem]) -> Double {
        guard !items.isEmpty else { return 0 }
        var cx = 0.0, cy = 0.0
        for i in items { cx += Double(i.center.x); cy += Double(i.center.y) }
        cx /= Double(items.count); cy /= Double(items.count)
        var sum = 0.0
        for i in items { sum += hypot(Double(i.center.x) - cx, Double(i.center.y) - cy) }
        return sum / Double(items.count)
    }
}
