import Foundation
import Testing

@testable import Dynamics

/// How each law scales with strength, distance, falloff, minimum radius and mass.
@Suite("FieldBehavior scaling")
struct FieldScalingTests {
    @Test(arguments: FieldMaker.allCases.filter { $0 != .custom && $0 != .velocity })
    func doublingTheStrengthDoublesTheAcceleration(_ maker: FieldMaker) {
        let (center, charge, velocity) = maker.probe
        // Each kind at its default falloff, but radial gravity uniform: its energy correction, of
        // second order in the step, grows with the field's stiffness (1 + falloff)·a/d, and at the
        // default inverse-square law it is 1.4·10⁻⁴ of the pull here (the energy tests hold it).
        let first = maker.make(), field = maker.make()
        if maker == .radialGravity { first.falloff = 0; field.falloff = 0 }
        let one = fieldAcceleration(first, at: center, charge: charge, velocity: velocity)
        field.strength = 2
        let two = fieldAcceleration(field, at: center, charge: charge, velocity: velocity)
        #expect(one.magnitude > 1e-3)
        switch maker {
        case .drag, .magnetic:
            // Exact over the step: u/(1 + 2cuΔt) and a turn by 2θ, not twice the first-order law.
            #expect(two.magnitude > 1.9 * one.magnitude && two.magnitude < 2 * one.magnitude)
        case .radialGravity, .electric:
            // The energy correction is of second order in the step: within 10⁻⁴ of linear here.
            #expect(nearlyEqual(two, CGVector(dx: 2 * one.dx, dy: 2 * one.dy), relative: 1e-4))
        default:
            #expect(nearlyEqual(two, CGVector(dx: 2 * one.dx, dy: 2 * one.dy), relative: 1e-6))
        }
    }

    @Test func theVelocityFieldIgnoresStrengthAndFalloffAsInUIKit() {
        let plain = fieldAcceleration(.velocityField(direction: CGVector(dx: 1, dy: 0)), at: CGPoint(x: 300, y: 0))
        let field = FieldBehavior.velocityField(direction: CGVector(dx: 1, dy: 0))
        field.strength = 5
        field.falloff = 2
        #expect(fieldAcceleration(field, at: CGPoint(x: 300, y: 0)) == plain)
    }

    @Test func falloffTwoQuartersTheForceAtTwiceTheDistance() {
        func pull(at distance: CGFloat) -> CGFloat {
            let field = FieldBehavior.radialGravityField(position: CGPoint(x: 50, y: 50))
            field.falloff = 2
            return fieldAcceleration(field, at: CGPoint(x: 50 + distance, y: 50)).magnitude
        }
        // 1 m/s² at 1 m (100 pt), the reference distance, whatever the falloff. Measured over one
        // step, which the energy correction changes by about Δt²·|a|/d (3·10⁻⁴ at 100 pt) or less.
        #expect(nearlyEqual(pull(at: 100), 100, relative: 1e-3))
        #expect(nearlyEqual(pull(at: 200), 25, relative: 1e-3))
        #expect(nearlyEqual(pull(at: 400), 100.0 / 16, relative: 1e-3))
        #expect(nearlyEqual(pull(at: 50), 400, relative: 2e-3))
    }

    @Test(arguments: [-1.0, 0.0, 1.0, 3.0])
    func theReferenceDistanceIsOneHundredPoints(_ falloff: Double) {
        // UIKit's falloff is r^(−falloff) with r in metres of 100 pt.
        let field = FieldBehavior.vortexField()
        field.falloff = CGFloat(falloff)
        let a = fieldAcceleration(field, at: CGPoint(x: 0, y: -100))
        #expect(nearlyEqual(a.magnitude, 100))
        let far = FieldBehavior.vortexField()
        far.falloff = CGFloat(falloff)
        #expect(nearlyEqual(fieldAcceleration(far, at: CGPoint(x: 0, y: -300)).magnitude, 100 * pow(3, -falloff)))
    }

    @Test func falloffZeroIsUniform() {
        let nearField = FieldBehavior.radialGravityField(position: .zero), farField = FieldBehavior.radialGravityField(position: .zero)
        nearField.falloff = 0
        farField.falloff = 0
        let near = fieldAcceleration(nearField, at: CGPoint(x: 3, y: 0))
        let far = fieldAcceleration(farField, at: CGPoint(x: 3000, y: 0))
        #expect(nearlyEqual(near, far, relative: 1e-4))
        #expect(nearlyEqual(far.magnitude, 100, relative: 1e-4))
    }

    @Test func minimumRadiusClampsTheFalloff() {
        func pull(at distance: CGFloat) -> CGFloat {
            let field = FieldBehavior.radialGravityField(position: .zero)
            field.falloff = 2
            field.minimumRadius = 50
            return fieldAcceleration(field, at: CGPoint(x: 0, y: distance)).magnitude
        }
        #expect(nearlyEqual(pull(at: 10), 400, relative: 2e-3))  // as at 50 pt
        #expect(nearlyEqual(pull(at: 50), 400, relative: 2e-3))
        #expect(nearlyEqual(pull(at: 200), 25, relative: 1e-3))  // beyond it, unchanged
    }

    @Test func theCoreIsTheRadiusTheStepResolves() {
        // Inverse-square, strength 1, 60 Hz: (1 + 2)·100 pt/s²·(r/100)⁻²/r·Δt² = ¼ at r ≈ 14.94 pt.
        let field = FieldBehavior.radialGravityField(position: .zero)
        field.falloff = 2
        let law = FieldLaw(field, substeps: 4, dt: 1.0 / 60)
        let expected = pow(3 * 100 * 10_000 / (3600 * 0.25), 1.0 / 3)
        #expect(abs(law.radialCore - expected) < 1e-9)
        #expect(abs(law.radialCore - 14.938) < 1e-3)
        // Inside it the pull ramps linearly to zero: half the rim's at half the radius; outside it
        // is UIKit's 100 pt/s²·(d / 100 pt)⁻².
        func pull(_ d: Double) -> Double { 100 * law.central(d, 0, core: law.radialCore) * d }
        let rim = 100 * pow(expected / 100, -2)
        #expect(abs(pull(expected) - rim) < 1e-9 * rim)
        #expect(abs(pull(expected / 2) - rim / 2) < 1e-9 * rim)
        #expect(abs(pull(expected / 10) - rim / 10) < 1e-9 * rim)
        #expect(abs(pull(30) - 100 * pow(0.3, -2)) < 1e-9 * rim)
        #expect(pull(0) == 0)
        // A minimum radius larger than the core keeps UIKit's constant pull down to the core.
        field.minimumRadius = 50
        let clamped = FieldLaw(field, substeps: 4, dt: 1.0 / 60)
        #expect(abs(clamped.radialCore - 3 * 100 * 4 / (3600 * 0.25)) < 1e-9)  // 1.33 pt
    }

    @Test func anItemAtThePositionIsNotPushedEvenWithFalloff() {
        let field = FieldBehavior.radialGravityField(position: CGPoint(x: 10, y: 10))
        field.falloff = 2
        let rig = FieldRig(field, at: CGPoint(x: 10, y: 10))
        rig.animator.step()
        #expect(rig.item.center == CGPoint(x: 10, y: 10))
        #expect(rig.animator.diagnostics.isEmpty)
    }

    @Test func aHugeFalloffNearThePositionIsContainedNotAppliedAsInfinity() {
        // (0.001 / 100)^−20 overflows any float: the force is ignored and reported, not applied.
        let field = FieldBehavior.linearGravityField(direction: CGVector(dx: 1, dy: 0))
        field.falloff = 20
        field.position = CGPoint(x: 0.5, y: 0)
        let rig = FieldRig(field, at: CGPoint(x: 0.5, y: 0))
        rig.animator.step()
        rig.animator.step()
        #expect(rig.item.center.x.isFinite && rig.item.center.y.isFinite)
        #expect(rig.animator.diagnostics.count == 1)
    }

    @Test(arguments: [FieldMaker.linearGravity, .radialGravity])
    func gravityFieldsIgnoreMass(_ maker: FieldMaker) {
        let light = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), side: 10)
        let heavy = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), side: 100, density: 7)
        #expect(nearlyEqual(light, heavy, relative: 1e-4))
    }

    @Test func turbulenceIgnoresMass() {
        let field = { FieldBehavior.turbulenceField(smoothness: 0.5, animationSpeed: 0) }
        let light = fieldAcceleration(field(), at: CGPoint(x: 60, y: 80), side: 10, velocity: CGPoint(x: 120, y: -50))
        let heavy = fieldAcceleration(field(), at: CGPoint(x: 60, y: 80), side: 100, density: 7, velocity: CGPoint(x: 120, y: -50))
        #expect(light.magnitude > 1)
        #expect(nearlyEqual(light, heavy, relative: 1e-4))
    }

    @Test(arguments: [FieldMaker.spring, .electric, .noise])
    func forceFieldsAccelerateHeavierItemsLess(_ maker: FieldMaker) {
        let one = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), charge: 1)
        let three = fieldAcceleration(maker.make(), at: CGPoint(x: 60, y: 80), density: 3, charge: 1)
        #expect(one.magnitude > 1)
        #expect(nearlyEqual(three, CGVector(dx: one.dx / 3, dy: one.dy / 3), relative: 1e-4))
    }

    @Test func theVortexDividesByTheMassTwice() {
        // UIKit's quirk, measured: a mass-3 item gets a ninth of a mass-1 item's acceleration.
        let one = fieldAcceleration(.vortexField(), at: CGPoint(x: 60, y: 80))
        let three = fieldAcceleration(.vortexField(), at: CGPoint(x: 60, y: 80), density: 3)
        #expect(nearlyEqual(three, CGVector(dx: one.dx / 9, dy: one.dy / 9), relative: 1e-4))
    }
}
