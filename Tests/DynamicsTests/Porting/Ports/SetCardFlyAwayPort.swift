// Port of skmalm/animated-set, "Animated Set/Set MVC/Custom Views/DynamicCardBehavior.swift" (2020),
// Stanford CS193p's "Animated Set": the three cards of a matched set fly away — each gets a continuous
// push whose angle turns a little every frame (so it circles), resistance 10, no rotation, collisions
// with the screen edges only — the push is removed after 1.5 s, and then `switchToSnap()` takes every
// card out of the collision and item behaviours and snaps it to the discard pile.
//
// Edits beyond deleting `UI`: `UIDynamicItem` → `any DynamicItem`; `DispatchQueue.main.asyncAfter`
// → `Clock.after`, run by the test's display link, so the delay counts animator frames; the cards
// (`CardView`s laid out by the source's grid) → three 64 × 100 pt `View`s, one of them 2 pt from the
// left edge and the floor so it flies into the corner; the snap point (the discard pile's centre in
// the source's view controller) → (300, 580); the display link → `step()`.
import Dynamics
import Testing

@Suite("Port: Animated Set fly-away cards (skmalm/animated-set)")
struct SetCardFlyAwayPort {
    /// The main queue's `asyncAfter`, counted in display-link frames.
    final class Clock {
        var now: TimeInterval = 0
        var pending: [(due: TimeInterval, work: () -> Void)] = []
        func after(_ delay: TimeInterval, _ work: @escaping () -> Void) {
            pending.append((now + delay, work))
        }
        func tick(_ animator: DynamicAnimator) {
            animator.step()
            now += 1.0 / 60
            let due = pending.filter { $0.due <= now + 1e-9 }
            pending.removeAll { $0.due <= now + 1e-9 }
            for p in due { p.work() }
        }
    }

    class DynamicCardBehavior: DynamicBehavior {
        let clock: Clock

        lazy var collisionBehavior: CollisionBehavior = {
            let behavior = CollisionBehavior()
            behavior.translatesReferenceBoundsIntoBoundary = true
            behavior.collisionMode = .boundaries
            return behavior
        }()

        lazy var itemBehavior: DynamicItemBehavior = {
            let behavior = DynamicItemBehavior()
            behavior.allowsRotation = false
            behavior.resistance = Constants.itemResistance
            return behavior
        }()

        func push(_ item: any DynamicItem) {
            let push = PushBehavior(items: [item], mode: .continuous)
            push.magnitude = Constants.pushMagnitudeToItemHeightRatio * item.bounds.height
            push.angle = 0.0
            push.action = { [unowned push] in
                push.angle += Constants.pushAngleToItemHeightRatio / item.bounds.height
            }
            addChildBehavior(push)
            clock.after(Constants.pushRemovalDelay) {
                self.removeChildBehavior(push)
            }
        }

        func add(_ item: any DynamicItem) {
            collisionBehavior.addItem(item)
            itemBehavior.addItem(item)
            push(item)
        }

        // initial/default value, replaced in convenience init
        var snapPoint = CGPoint.zero

        func switchToSnap() {
            let items = collisionBehavior.items
            for item in items {
                collisionBehavior.removeItem(item)
                itemBehavior.removeItem(item)
                let snapBehavior = SnapBehavior(item: item, snapTo: snapPoint)
                addChildBehavior(snapBehavior)
            }
        }

        init(clock: Clock) {
            self.clock = clock
            super.init()
            addChildBehavior(collisionBehavior)
            addChildBehavior(itemBehavior)
        }

        convenience init(inAnimator animator: DynamicAnimator, withSnapPoint snapPoint: CGPoint, clock: Clock) {
            self.init(clock: clock)
            animator.addBehavior(self)
            self.snapPoint = snapPoint
        }
    }

    private struct Constants {
        // larger value -> more magnitude
        static let pushMagnitudeToItemHeightRatio: CGFloat = 0.25
        // larger value -> larger angle increment
        static let pushAngleToItemHeightRatio: CGFloat = 15.6
        static let pushRemovalDelay: TimeInterval = 1.5
        static let itemResistance: CGFloat = 10.0
    }

    static let snapPoint = CGPoint(x: 300, y: 580)

    func makeCards() -> [View] {
        [View(frame: CGRect(x: 2, y: 665 - 100, width: 64, height: 100)),
         View(frame: CGRect(x: 150, y: 200, width: 64, height: 100)),
         View(frame: CGRect(x: 250, y: 300, width: 64, height: 100))]
    }

    /// Speeds of `cards` over the last frame, pt/s (from the centres' travel).
    static func speeds(_ cards: [View], since last: [CGPoint]) -> [CGFloat] {
        zip(cards, last).map { hypot($0.center.x - $1.x, $0.center.y - $1.y) * 60 }
    }

    @Test func theCardsCircleFlyAwayStopAndSnapToTheDiscardPile() throws {
        let clock = Clock()
        let animator = DynamicAnimator(referenceBounds: phoneBounds)
        let behavior = DynamicCardBehavior(inAnimator: animator, withSnapPoint: Self.snapPoint, clock: clock)
        let cards = makeCards()
        for c in cards { behavior.add(c) }

        // 1.5 s of a turning push. Magnitude 0.25·100 = 25 on a 64 × 100 card (density 1) is an
        // acceleration a = 25·100·(100·100)/(64·100) = 3906 pt/s²; it turns by Δ = 15.6/100 rad a
        // frame (ω = 9.36 rad/s) against resistance r = 10/s: a steady circle at a/√(r² + ω²) =
        // 285 pt/s in continuous time. The solver's four sub-steps a frame (h = 1/240 s) damp, then
        // add the push (v ← v/(1 + r·h) + a·h, Box2D v3's order) with the angle fixed for the frame:
        // the steady circle of that recurrence, travelled per frame, is the speed to expect.
        let a = 25.0 * 100 * (100 * 100) / (64 * 100), h = 1.0 / 240, delta = 15.6 / 100
        var (vx, vy, angle) = (0.0, 0.0, 0.0)
        var model = 0.0
        for _ in 0..<600 {
            var (dx, dy) = (0.0, 0.0)
            for _ in 0..<4 {
                vx = vx / (1 + 10 * h) + a * h * cos(angle)
                vy = vy / (1 + 10 * h) + a * h * sin(angle)
                dx += vx * h; dy += vy * h
            }
            angle += delta
            model = hypot(dx, dy) * 60
        }
        var last = cards.map(\.center)
        var minX: CGFloat = .infinity, maxY: CGFloat = 0
        var circling: [CGFloat] = []
        for k in 0..<90 {
            clock.tick(animator)
            let v = Self.speeds(cards, since: last)
            last = cards.map(\.center)
            minX = min(minX, cards[0].center.x)
            maxY = max(maxY, cards[0].center.y)
            if k >= 60 { circling.append(contentsOf: v[1...]) }
        }
        // The two free cards circle at one steady speed (their paths are the same circle).
        #expect(circling.max()! - circling.min()! < 1)
        // 293.68 pt/s (model) against 293.68–293.70 measured.
        #expect(abs(circling.min()! - CGFloat(model)) < 0.1 && abs(circling.max()! - CGFloat(model)) < 0.1)
        // The push is gone after 1.5 s (the clock removed it): collision, item behaviour left.
        #expect(behavior.childBehaviors.count == 2)
        // The corner card runs into the left wall and the floor: it never leaves the bounds.
        #expect(maxY + 50 < 667 + 0.5)
        // The corner card reaches the left wall at 0.45 s moving left at ~290 pt/s (4.8 pt a frame)
        // while the push presses it in. It used to sink 2.1 pt (centre x 29.88, half width 32) and
        // be pushed out over six frames: no contact point is made further out than the speculative
        // distance (2 pt), so a frame's travel past it went into the wall. The animator sweeps every
        // body that moves further than that (`WorldDef.sweepPastSpeculativeReach`, as UIKit's Box2D
        // 2.x computes the time of impact against static bodies), and a steady push of 3906 pt/s²
        // on the 60 Hz static contact holds it a/(2π·60)² = 0.03 pt in, within the 0.5 pt slop.
        #expect(minX - 32 > -0.5)

        // Resistance alone stops them: the speed falls by (1 + r·h)⁻⁴ a frame, h = 1/240 s
        // (implicit damping in each of four sub-steps; e^(−r/60) = 0.846 continuous).
        clock.tick(animator)
        var v0 = Self.speeds(cards, since: last)
        last = cards.map(\.center)
        for _ in 0..<5 {
            clock.tick(animator)
            let v1 = Self.speeds(cards, since: last)
            last = cards.map(\.center)
            for (a, b) in zip(v0, v1) { #expect(abs(b / a - 1 / pow(1 + 10.0 / 240, 4)) < 0.002) }
            v0 = v1
        }
        // They come to rest where they stopped, unturned (allowsRotation = false), and the animator
        // pauses (measured 0.8 s after this point, 0.9 s after the push ended).
        let rested = try #require(runUntil(animator, seconds: 3) { !animator.isRunning })
        #expect(rested < 1.5)
        #expect(cards.allSatisfy { rotation(of: $0) == 0 })

        // switchToSnap: every card leaves the collision and item behaviours and snaps to the pile.
        behavior.switchToSnap()
        #expect(animator.isRunning)
        #expect(behavior.collisionBehavior.items.isEmpty && behavior.itemBehavior.items.isEmpty)
        let snapped = try #require(runUntil(animator, seconds: 5) { !animator.isRunning })
        #expect(snapped < 1.5)                     // measured 0.95 s
        for c in cards {
            #expect(hypot(c.center.x - Self.snapPoint.x, c.center.y - Self.snapPoint.y) < 0.5)
            #expect(abs(rotation(of: c)) < 0.01)
        }
        #expect(animator.diagnostics.isEmpty)
    }
}
