import Foundation
import Testing

import Dynamics

/// Which way and how hard each field pushes, on a y-down screen.
///
/// The numbers marked "measured" are UIKit's own, from the charon project's measurements of
/// UIFieldBehavior on the host's UIKitCore and PhysicsKit (kern0x1b/charon,
/// packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md, §10.2): a 100 × 100 pt item (mass 1)
/// at (300, 400) pt, that is 5 m from a field at the origin, at rest unless said otherwise. Where
/// charon relied on UIKit's per-kind default falloff, the test sets that falloff.
@Suite("FieldBehavior directions")
struct FieldDirectionTests {
    let probe = CGPoint(x: 300, y: 400)

    @Test func linearGravityIsOneMetrePerSecondSquaredPerUnit() {
        // Measured: direction (3, 4) gives (300, 400) pt/s² for masses 1, 2 and 3.
        for density in [1.0, 2.0, 3.0] {
            let a = fieldAcceleration(.linearGravityField(direction: CGVector(dx: 3, dy: 4)), at: probe, density: density)
            #expect(nearlyEqual(a, CGVector(dx: 300, dy: 400)))
        }
        // Measured: strength 2, falloff 1 at 5 m: (120, 160).
        let weaker = FieldBehavior.linearGravityField(direction: CGVector(dx: 3, dy: 4))
        weaker.strength = 2
        weaker.falloff = 1
        #expect(nearlyEqual(fieldAcceleration(weaker, at: probe), CGVector(dx: 120, dy: 160)))
        let sideways = fieldAcceleration(.linearGravityField(direction: CGVector(dx: -0.5, dy: 0)), at: .zero)
        #expect(nearlyEqual(sideways, CGVector(dx: -50, dy: 0)))
    }

    @Test func linearGravityFallsLikeATenthOfAGravityBehavior() {
        // Direction (0, 1) is 1 m/s² = 100 pt/s²: a GravityBehavior of magnitude 0.1.
        let animator = DynamicAnimator()
        let fieldItem = square(at: .zero)
        let gravityItem = square(at: CGPoint(x: 1000, y: 0))
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0, dy: 1))
        field.addItem(fieldItem)
        animator.addBehavior(field)
        let gravity = GravityBehavior(items: [gravityItem])
        gravity.magnitude = 0.1
        animator.addBehavior(gravity)
        animator.advance(by: 1)
        let expected = 0.5 * 100 * (1 + 1 / 240.0)  // ½·g·t²·(1 + 1/N) with N = 4 sub-steps of 60 Hz
        #expect(abs(Double(fieldItem.center.y) - expected) < 0.05)
        #expect(abs(fieldItem.center.y - gravityItem.center.y) < 1e-3)
    }

    @Test func radialGravityPullsTowardThePositionAndNegativeRepels() {
        let position = CGPoint(x: 200, y: 300)
        // Uniform, so that only the direction is tested (the inverse-square default: FieldScalingTests).
        let attract = FieldBehavior.radialGravityField(position: position)
        attract.falloff = 0
        let right = fieldAcceleration(attract, at: CGPoint(x: 260, y: 380))
        // 100 pt away along (0.6, 0.8): pulled back at 100 pt/s².
        #expect(nearlyEqual(right, CGVector(dx: -60, dy: -80), relative: 1e-4))
        let repel = FieldBehavior.radialGravityField(position: position)
        repel.falloff = 0
        repel.strength = -1
        #expect(nearlyEqual(fieldAcceleration(repel, at: CGPoint(x: 260, y: 380)), CGVector(dx: 60, dy: 80), relative: 1e-4))
    }

    @Test func radialGravityMatchesUIKitsMeasurements() {
        // Measured: falloff 2 gives −(2.4, 3.2) pt/s², the same at mass 3.
        for density in [1.0, 3.0] {
            let sun = FieldBehavior.radialGravityField(position: .zero)
            sun.falloff = 2
            #expect(nearlyEqual(fieldAcceleration(sun, at: probe, density: density), CGVector(dx: -2.4, dy: -3.2), relative: 1e-4))
        }
        // Measured: strength 2, falloff 1, minimum radius 1000 pt: −(12, 16) (clamped at 10 m).
        let clamped = FieldBehavior.radialGravityField(position: .zero)
        clamped.strength = 2
        clamped.falloff = 1
        clamped.minimumRadius = 1000
        #expect(nearlyEqual(fieldAcceleration(clamped, at: probe), CGVector(dx: -12, dy: -16), relative: 1e-4))
    }

    @Test func vortexTurnsClockwiseOnScreenAsUIKitDoes() {
        // Measured: (−80, 60) pt/s², that is 100 pt/s² along (−p̂y, p̂x); a ninth of it at mass 3.
        #expect(nearlyEqual(fieldAcceleration(.vortexField(), at: probe), CGVector(dx: -80, dy: 60)))
        #expect(nearlyEqual(fieldAcceleration(.vortexField(), at: probe, density: 3), CGVector(dx: -80.0 / 9, dy: 60.0 / 9)))
        // Measured: strength 2, falloff 1, minimum radius 10 m: (−16, 12).
        let clamped = FieldBehavior.vortexField()
        clamped.strength = 2
        clamped.falloff = 1
        clamped.minimumRadius = 1000
        #expect(nearlyEqual(fieldAcceleration(clamped, at: probe), CGVector(dx: -16, dy: 12)))
        // Right of the center, clockwise on a y-down screen is down (+y); a negative strength, up.
        #expect(nearlyEqual(fieldAcceleration(.vortexField(), at: CGPoint(x: 100, y: 0)), CGVector(dx: 0, dy: 100)))
        let reversed = FieldBehavior.vortexField()
        reversed.strength = -1
        #expect(nearlyEqual(fieldAcceleration(reversed, at: CGPoint(x: 100, y: 0)), CGVector(dx: 0, dy: -100)))
    }

    @Test func vortexCarriesAnItemAroundClockwise() {
        // The screen angle atan2(−y, x) falls for clockwise motion on a y-down screen.
        let field = FieldBehavior.vortexField()
        field.falloff = -1  // ∝ distance
        let rig = FieldRig(field, at: CGPoint(x: 100, y: 0))
        var last = 0.0
        var turned = 0.0
        for _ in 0..<20 {
            rig.animator.step()
            let angle = atan2(-Double(rig.item.center.y), Double(rig.item.center.x))
            turned += angle - last
            last = angle
        }
        #expect(turned < -0.005)
    }

    @Test func springPullsBackInProportionToTheDistance() {
        // Measured: −(300, 400) pt/s² at mass 1, −(100, 133.3) at mass 3 (UIKit's default spring
        // falloff −1 on a unit force is this law at falloff 0).
        let spring = FieldBehavior.springField()
        #expect(nearlyEqual(fieldAcceleration(spring, at: probe), CGVector(dx: -300, dy: -400)))
        #expect(nearlyEqual(fieldAcceleration(.springField(), at: probe, density: 3), CGVector(dx: -100, dy: -400.0 / 3)))
    }

    @Test func electricFieldRepelsLikeChargesAndAttractsUnlikeOnes() {
        // Measured (UIKit's electric default falloff is 1): charge 2 gives (24, 32), at mass 3 (8, 10.667).
        func field() -> FieldBehavior { let f = FieldBehavior.electricField(); f.falloff = 1; return f }
        #expect(nearlyEqual(fieldAcceleration(field(), at: probe, charge: 2), CGVector(dx: 24, dy: 32), relative: 1e-4))
        #expect(nearlyEqual(fieldAcceleration(field(), at: probe, density: 3, charge: 2), CGVector(dx: 8, dy: 32.0 / 3), relative: 1e-4))
        #expect(fieldAcceleration(field(), at: probe, charge: 0) == .zero)
        let negative = fieldAcceleration(field(), at: probe, charge: -2)
        #expect(nearlyEqual(negative, CGVector(dx: -24, dy: -32), relative: 1e-4))
    }

    @Test func magneticFieldTurnsPositiveChargesCounterClockwise() {
        // Measured (default falloff 1): moving right at 100 pt/s, (0, −20) pt/s² at mass 1 and
        // (0, −6.667) at mass 3 — up the screen: a counter-clockwise turn. Here an exact turn by
        // θ = ω·Δt per step, ω = strength·q·fall/m = 0.2 rad/s.
        func field() -> FieldBehavior { let f = FieldBehavior.magneticField(); f.falloff = 1; return f }
        // The field is sampled 3/8 of a step ahead (0.625 pt at 100 pt/s), where fall = 100 pt / d.
        let lead = hypot(300 + 100.0 / 160, 400)
        for density in [1.0, 3.0] {
            let a = fieldAcceleration(field(), at: probe, density: density, charge: 1, velocity: CGPoint(x: 100, y: 0))
            let theta = 100 / lead / density / 60
            #expect(nearlyEqual(a, CGVector(dx: (cos(theta) - 1) * 100 * 60, dy: -sin(theta) * 100 * 60), relative: 1e-4, absolute: 2e-3))
            #expect(abs(a.dy + 20 / density) < 0.02 / density)  // the lead moves it by 0.1 %
        }
        let reversed = field()
        reversed.strength = -1
        #expect(fieldAcceleration(reversed, at: probe, charge: 1, velocity: CGPoint(x: 100, y: 0)).dy > 0)
        #expect(fieldAcceleration(field(), at: probe, charge: -1, velocity: CGPoint(x: 100, y: 0)).dy > 0)
    }

    @Test func dragOpposesTheVelocity() {
        let a = fieldAcceleration(.dragField(), at: .zero, velocity: CGPoint(x: 300, y: -400))
        #expect(a.dx < 0 && a.dy > 0)
        #expect(abs(a.dx / a.dy + 0.75) < 1e-4)
    }

    @Test func velocityFieldSetsItsVelocityInOneStep() {
        // Measured: direction (30, 40) sets (3000, 4000) pt/s after the first frame, whatever the
        // velocity was.
        let rig = FieldRig(.velocityField(direction: CGVector(dx: 30, dy: 40)), at: .zero, velocity: CGPoint(x: -70, y: 5))
        rig.animator.step()
        #expect(abs(rig.velocity.x - 3000) < 0.01 && abs(rig.velocity.y - 4000) < 0.01)
    }

    @Test func aFieldActsOnlyOnItsOwnItems() {
        let animator = DynamicAnimator()
        let mine = square(at: CGPoint(x: 0, y: 0))
        let other = square(at: CGPoint(x: 500, y: 0))
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 0, dy: 10))
        field.addItem(mine)
        animator.addBehavior(field)
        animator.addBehavior(DynamicItemBehavior(items: [other]))
        animator.advance(by: 0.5)
        #expect(mine.center.y > 100)
        #expect(other.center == CGPoint(x: 500, y: 0))
        field.removeItem(mine)
        let y = mine.center.y
        animator.advance(by: 0.1)
        #expect(field.items.isEmpty)
        #expect(mine.center.y == y)  // it left the world: no behaviour holds it any more
    }
}
