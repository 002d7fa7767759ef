import Foundation
import Testing

@testable import Dynamics

/// Central fields do not pump energy into items passing through their center.
///
/// An inverse-square "sun" pulls without bound near its center; a step that carries an item
/// through it samples the pull on one side only and, in UIKit (whose radial field grows up to
/// 0.3 pt from the center), flings the item away: an item released at rest 500 pt from UIKit's
/// radial field of strength 200 was 2 790 pt from it a second later, though its energy
/// allows 500 at most (kern0x1b/charon, packages/a/apple-backports/facts/UIKit/UIFieldBehavior.md,
/// §10.7). Here the field fades inside a core the step resolves, and the step keeps the item's
/// energy in the field.
@Suite("FieldBehavior energy")
struct FieldEnergyTests {
    /// The item's speed and distance at every apex (where its distance from the center stops
    /// growing) over `seconds`, and its smallest distance, for an item of mass 0.01 released at
    /// `start` (relative to the center) with `velocity`.
    struct Passes {
        var apexes: [(distance: Double, energy: Double)] = []
        var closest = Double.infinity
        var startEnergy = 0.0
    }

    func passes(_ field: FieldBehavior, start: CGPoint, charge: CGFloat = 0, velocity: CGPoint = .zero,
                seconds: Double = 20) -> Passes {
        let center = CGPoint(x: 500, y: 500)
        field.position = center
        let rig = FieldRig(field, at: CGPoint(x: center.x + start.x, y: center.y + start.y), side: 10,
                           charge: charge, velocity: velocity)
        // The field's potential per unit mass: scale·Ψ(d), Ψ the potential of its law (radial
        // gravity: 100·S; electric: −100·S·q/m).
        let law = FieldLaw(field, substeps: rig.animator.substeps, dt: rig.animator.stepDuration)
        let mass = 0.01
        let scale = field.kind == .electric ? -100 * Double(field.strength * charge) / mass : 100 * Double(field.strength)
        let core = field.kind == .electric ? law.coreRadius(abs(scale)) : law.radialCore
        func state() -> (distance: Double, energy: Double) {
            let d = hypot(Double(rig.item.center.x - center.x), Double(rig.item.center.y - center.y))
            let v = rig.velocity
            return (d, 0.5 * Double(v.x * v.x + v.y * v.y) + scale * law.potential(d, core: core))
        }
        var result = Passes()
        result.startEnergy = state().energy
        var previous = state(), rising = false
        for _ in 0..<Int(seconds * 60) {
            rig.animator.step()
            let now = state()
            result.closest = min(result.closest, now.distance)
            if rising && now.distance < previous.distance { result.apexes.append(previous) }
            rising = now.distance > previous.distance
            previous = now
        }
        return result
    }

    @Test(arguments: [(1.0, 0.0), (10, 0), (10, 3), (10, 30), (100, 0), (100, 30)])
    func anItemFallingThroughASunClimbsBackToWhereItStarted(_ strength: Double, _ offset: Double) {
        // Released at rest 200 pt out (and `offset` sideways, so it swings past the center rather
        // than through it): every apex is the start's distance, every apex energy the start's.
        let sun = FieldBehavior.radialGravityField(position: .zero)
        sun.strength = CGFloat(strength)
        sun.falloff = 2
        let start = CGPoint(x: 200, y: offset)
        let result = passes(sun, start: start)
        let distance = hypot(200, offset)
        #expect(result.closest < 15)              // it went through the core …
        #expect(result.apexes.count >= 3)         // … and back out, again and again
        for apex in result.apexes {
            #expect(abs(apex.distance - distance) < 0.1)
            #expect(apex.energy <= result.startEnergy + 1e-4 * abs(result.startEnergy))
            #expect(abs(apex.energy - result.startEnergy) < 1e-3 * abs(result.startEnergy))
        }
    }

    @Test func anUnlikeChargeFallingThroughAnElectricCenterClimbsBackToo() {
        let field = FieldBehavior.electricField()
        field.strength = -0.05   // attracts a positive charge
        field.falloff = 2
        let result = passes(field, start: CGPoint(x: 150, y: 2), charge: 2)
        #expect(result.closest < 10)
        #expect(result.apexes.count >= 4)
        for apex in result.apexes {
            #expect(abs(apex.distance - hypot(150, 2)) < 0.1)
            #expect(apex.energy <= result.startEnergy + 1e-4 * abs(result.startEnergy))
        }
    }

    @Test func aFastFlybyThroughTheCenterLeavesAtItsIncomingSpeed() {
        // Thrown at 600 pt/s from 400 pt out straight through the center of a strong sun: far on
        // the other side its speed is what energy conservation gives at that distance.
        let sun = FieldBehavior.radialGravityField(position: .zero)
        sun.strength = 50
        sun.falloff = 2
        let center = CGPoint(x: 1000, y: 1000)
        sun.position = center
        let rig = FieldRig(sun, at: CGPoint(x: center.x - 400, y: center.y + 1), side: 10, velocity: CGPoint(x: 600, y: 0))
        let law = FieldLaw(sun, substeps: 4, dt: 1.0 / 60)
        func energy() -> Double {
            let d = hypot(Double(rig.item.center.x - center.x), Double(rig.item.center.y - center.y))
            let v = rig.velocity
            return 0.5 * Double(v.x * v.x + v.y * v.y) + 5000 * law.potential(d, core: law.radialCore)
        }
        let start = energy()
        var crossed = false
        for _ in 0..<240 {
            rig.animator.step()
            if rig.item.center.x > center.x + 400 { crossed = true; break }
        }
        #expect(crossed)
        #expect(abs(energy() - start) < 1e-3 * abs(start))
    }
}
