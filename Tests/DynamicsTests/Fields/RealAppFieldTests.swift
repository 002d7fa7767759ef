import DynamicsScenes
import Foundation
import Testing

import Dynamics

/// Public UIKit apps that use fields, ported by deleting `UI` (and the view code), with the
/// motion each one shows on iOS.
@Suite("FieldBehavior in real apps")
struct RealAppFieldTests {
    // MARK: A noise field of strength 50 is a slow drift

    /// stoqn4opm/UIKit-Dynamics-Demo, UIKitDynamicsDemo/CircleAnimationView.swift and Circle.swift:
    /// "an animated floating circles background" (README). 26 circles of 92.5, 44, 56, 40, 30 or
    /// 20 pt (ellipse bounds), each in its own item behaviour with elasticity 0.1, friction 0,
    /// resistance 0 and density (100 − width / 100)·8 ≈ 795; a collision behaviour with the bounds;
    /// one noise field: slow mode smoothness 0.6, animation speed 0.3, strength 50; fast mode
    /// strength 100, smoothness 0.9. Port: the screen is 375 × 667 pt; the app spawns circles at
    /// random origins, here at seeded random centres inside the bounds. Returns the speeds (pt/s)
    /// after the first second, each circle's path length (pt) and whether all stayed inside.
    func floatingCircles(strength: CGFloat, smoothness: CGFloat, seconds: Double)
        -> (speeds: [Double], paths: [Double], inside: Bool) {
        let bounds = CGRect(x: 0, y: 0, width: 375, height: 667)
        let animator = DynamicAnimator(referenceBounds: bounds)
        var generator = SplitMix64Generator(seed: 5)
        let sizes: [CGFloat] = [92.5, 44, 56, 40, 30, 20]
        let collision = CollisionBehavior()
        collision.translatesReferenceBoundsIntoBoundary = true
        let noise = FieldBehavior.noiseField(smoothness: 0.6, animationSpeed: 0.3)
        noise.strength = strength
        noise.smoothness = smoothness
        var circles: [BasicDynamicItem] = []
        for k in 0...25 {
            let width = sizes[Int(generator.next() % 6)]
            let center = CGPoint(x: generator.uniform(Double(width / 2)...Double(bounds.width - width / 2)),
                                 y: generator.uniform(Double(width / 2)...Double(bounds.height - width / 2)))
            let circle = BasicDynamicItem(center: center, size: CGSize(width: width, height: width),
                                          collisionBoundsType: .ellipse, name: "circle \(k)")
            let behaviour = DynamicItemBehavior(items: [circle])
            behaviour.elasticity = 0.1
            behaviour.friction = 0
            behaviour.resistance = 0
            behaviour.density = (100 - circle.bounds.width / 100) * 8
            animator.addBehavior(behaviour)
            circles.append(circle)
        }
        for circle in circles {
            collision.addItem(circle)
            noise.addItem(circle)
        }
        animator.addBehavior(collision)
        animator.addBehavior(noise)
        var speeds: [Double] = [], paths = [Double](repeating: 0, count: circles.count)
        var last = circles.map(\.center)
        var inside = true
        for step in 1...Int(seconds * 60) {
            animator.step()
            for (k, circle) in circles.enumerated() {
                let moved = hypot(Double(circle.center.x - last[k].x), Double(circle.center.y - last[k].y))
                paths[k] += moved
                if step > 60 { speeds.append(moved * 60) }
                last[k] = circle.center
                inside = inside && bounds.contains(circle.center)
            }
        }
        return (speeds, paths, inside)
    }

    @Test func aNoiseFieldOfStrengthFiftyIsASlowDrift() {
        let (speeds, paths, inside) = floatingCircles(strength: 50, smoothness: 0.6, seconds: 15)
        let mean = speeds.reduce(0, +) / Double(speeds.count)
        // Tens of points a second (measured: mean 22 pt/s, fastest 148 pt/s, over 30 s) …
        #expect(mean > 5 && mean < 60)
        #expect(speeds.max()! < 300)
        // … and every circle really drifts, inside the screen.
        #expect(paths.min()! > 20)
        #expect(inside)
    }

    @Test func theFastModeIsFaster() {
        let slow = floatingCircles(strength: 50, smoothness: 0.6, seconds: 10)
        let fast = floatingCircles(strength: 100, smoothness: 0.9, seconds: 10)
        let mean = { (speeds: [Double]) in speeds.reduce(0, +) / Double(speeds.count) }
        #expect(mean(fast.speeds) > mean(slow.speeds))
        #expect(fast.speeds.max()! < 500)
        #expect(fast.inside)
    }

    // MARK: Spring fields settle light items into place

    /// How far (as a fraction of the release distance) an item released at rest overshoots the
    /// spring field it is pulled into, and how far from the field's position it is after `seconds`.
    func springSettle(field: FieldBehavior, item: BasicDynamicItem, behaviour: DynamicItemBehavior,
                      bounds: CGRect, seconds: Double) -> (overshoot: Double, peakTime: Double, rest: Double) {
        let animator = DynamicAnimator(referenceBounds: bounds)
        let collision = CollisionBehavior(items: [item])
        collision.translatesReferenceBoundsIntoBoundary = true
        field.addItem(item)
        animator.addBehavior(collision)
        animator.addBehavior(behaviour)
        animator.addBehavior(field)
        let target = field.position
        let ux = Double(item.center.x - target.x), uy = Double(item.center.y - target.y)
        let distance = hypot(ux, uy)
        var deepest = 0.0, peakTime = 0.0
        for step in 1...Int(seconds * 60) {
            animator.step()
            // Signed position along the release direction: negative once past the field's position.
            let s = (Double(item.center.x - target.x) * ux + Double(item.center.y - target.y) * uy) / distance
            if s < deepest { deepest = s; peakTime = Double(step) / 60 }
        }
        let rest = hypot(Double(item.center.x - target.x), Double(item.center.y - target.y))
        return (-deepest / distance, peakTime, rest)
    }

    @Test func applesStickyCornersSettlesWithOneSmallOvershoot() {
        // robovm/apple-ios-samples, StickyCornersUsingUIFieldBehaviorandotherUIDynamicBehaviors/
        // StickyCorners/StickyCornersBehavior.swift and StickyCornersViewController.swift (Apple,
        // 2015): on a 375 × 667 screen the item is 66 × 94 pt (0.1 × the longer side, aspect 0.7),
        // density 0.01, resistance 10, friction 0, no rotation; four spring fields (strength 1) at
        // the corners inset by 33 pt + half the item, each with a region of the screen less twice
        // that inset. Port: released at rest 73 pt from the bottom-right corner's field.
        let bounds = CGRect(x: 0, y: 0, width: 375, height: 667)
        let item = BasicDynamicItem(center: CGPoint(x: 280, y: 520), size: CGSize(width: 66, height: 94))
        let behaviour = DynamicItemBehavior(items: [item])
        behaviour.density = 0.01
        behaviour.resistance = 10
        behaviour.friction = 0
        behaviour.allowsRotation = false
        let field = FieldBehavior.springField()
        field.position = CGPoint(x: 375 - 66, y: 667 - 80)
        field.region = Region(size: CGSize(width: 375 - 132, height: 667 - 160))
        let (overshoot, peakTime, rest) = springSettle(field: field, item: item, behaviour: behaviour,
                                                       bounds: bounds, seconds: 2)
        // Mass 0.006204, k = 1 mass/s², damping 10/s: ω₀ = 12.70 rad/s, ζ = 0.394, so one overshoot
        // of e^(−πζ/√(1 − ζ²)) = 26 % at π/ω_d = 0.27 s, and rest within a second — the sample's
        // springy snap. (A spring 4π² times stiffer, the old law, would ring at 13 Hz with an 82 %
        // overshoot.)
        #expect(abs(overshoot - 0.260) < 0.02)
        #expect(abs(peakTime - 0.269) < 0.03)
        #expect(rest < 0.5)
    }

    @Test func kodecosSpringFieldSnagsTheSquare() {
        // kodecocodes/i9t, uikit-dynamics/uikit-dynamics.markdown ("iOS 9 by Tutorials", the
        // playground): a 100 × 100 view at (150, 150) with density 0.01, resistance 10, friction 0,
        // no rotation, in a spring field at (150, 350) with a 500 × 500 region, inside a 600 × 600
        // view whose bounds are a boundary: "the bouncy snag of the white square".
        let item = BasicDynamicItem(center: CGPoint(x: 150, y: 150), size: CGSize(width: 100, height: 100))
        let behaviour = DynamicItemBehavior(items: [item])
        behaviour.density = 0.01
        behaviour.resistance = 10
        behaviour.friction = 0
        behaviour.allowsRotation = false
        let field = FieldBehavior.springField()
        field.position = CGPoint(x: 150, y: 350)
        field.region = Region(size: CGSize(width: 500, height: 500))
        let (overshoot, peakTime, rest) = springSettle(field: field, item: item, behaviour: behaviour,
                                                       bounds: CGRect(x: 0, y: 0, width: 600, height: 600), seconds: 2)
        // Mass 0.01: ω₀ = 10 rad/s, ζ = 0.5: one overshoot of 16.3 % (33 pt) at 0.36 s.
        #expect(abs(overshoot - 0.163) < 0.02)
        #expect(abs(peakTime - 0.363) < 0.03)
        #expect(rest < 0.5)
    }

    // MARK: A custom field reads the clock

    @Test func programmingIOSsDelayedDragFieldStartsDraggingAfterTheDelay() {
        // mattneub/Programming-iOS-Book-Examples, the UIFieldBehavior example (case 2): a
        // UIFieldBehavior subclass whose field block returns the drag −v once its time argument
        // passes `delay` (0.95 s), else nothing; the field covers the view; a 50 × 50 view at
        // (0, 70) gets an instantaneous push (0.5, 0.5). On iOS the view glides for about a second,
        // then stops: UIKit passes the simulation clock as the block's last argument. Ported as the
        // book writes it: a subclass whose class factory returns `Self` and whose block reads the
        // subclass's `delay` (edits: `UI` deleted; the book's unlabelled CGVector(_:_:) spelled out).
        final class MyDelayedFieldBehavior: FieldBehavior {
            var delay = 0.0
            var mass: CGFloat = 0           // the test reads the mass the block was given
            class func dragField(delay del: Double) -> Self {
                let f = self.field {
                    (beh, pt, v, m, c, t) -> CGVector in
                    (beh as! MyDelayedFieldBehavior).mass = m
                    if t > (beh as! MyDelayedFieldBehavior).delay {
                        return CGVector(dx: -v.dx, dy: -v.dy)
                    }
                    return CGVector(dx: 0, dy: 0)
                }
                f.delay = del
                return f
            }
        }
        let bounds = CGRect(x: 0, y: 0, width: 375, height: 667)
        let animator = DynamicAnimator(referenceBounds: bounds)
        let view = BasicDynamicItem(center: CGPoint(x: 25, y: 95), size: CGSize(width: 50, height: 50))
        let delay = 0.95
        let drag = MyDelayedFieldBehavior.dragField(delay: delay)
        drag.region = Region(size: bounds.size)
        drag.position = CGPoint(x: bounds.midX, y: bounds.midY)
        drag.addItem(view)
        animator.addBehavior(drag)
        let push = PushBehavior(items: [view], mode: .instantaneous)
        push.pushDirection = CGVector(dx: 0.5, dy: 0.5)
        animator.addBehavior(push)
        let probe = DynamicItemBehavior(items: [view])
        animator.addBehavior(probe)
        func speed() -> Double { let v = probe.linearVelocity(for: view); return hypot(Double(v.x), Double(v.y)) }
        animator.step()
        // The push gave it 50·√2 mass·pt/s along the diagonal (0.5 × 100 per axis).
        let pushed = speed()
        let mass = drag.mass
        #expect(abs(pushed - 50 * 2.0.squareRoot() / Double(mass)) < 1e-3 * pushed)
        // No drag while the clock is at most 0.95 s: 56 steps (the sum of 57 steps of 1/60 s is
        // 0.95 + 1.3·10⁻¹⁵, past the delay, as UIKit's own double clock of float sub-steps would be).
        for _ in 1..<56 { animator.step() }
        #expect(abs(animator.elapsedTime - 56.0 / 60) < 1e-12)
        #expect(abs(speed() - pushed) < 1e-3)
        animator.step()                       // the clock passes 0.95 s: a = −v / m for this step
        #expect(animator.elapsedTime > delay)
        #expect(abs(speed() - pushed * (1 - 1 / (60 * Double(mass)))) < 1e-3)
        animator.advance(by: 3)
        #expect(speed() < 1)
        // It glided 56 steps at full speed, then about speed·m·(1 s) more.
        let travelled = hypot(Double(view.center.x - 25), Double(view.center.y - 95))
        #expect(abs(travelled - pushed * (56.0 / 60 + Double(mass))) < 10)
    }
}
