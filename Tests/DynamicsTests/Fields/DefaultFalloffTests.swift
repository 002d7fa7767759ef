import Foundation
import Testing

@testable import Dynamics

/// Issue 25, point 5 (third bullet): every kind starts with UIKit's own falloff — radial gravity 2,
/// spring −1, electric and magnetic 1, the others 0 (measured by charon, §10.2) — so a ported
/// field pulls as hard, near and far, as on iOS.
@Suite("Issue 25.5: UIKit's default falloff per kind")
struct DefaultFalloffTests {
    /// A radial field of strength s pulls 100·s pt/s² at 100 pt and a quarter of it at 200 pt
    /// (Newton's inverse square), as ports of orbit demos expect, without setting the falloff.
    @Test(arguments: [CGFloat(1), 10, 1.5])
    func issue25Point5RadialGravityIsInverseSquareByDefault(_ s: CGFloat) {
        func pull(at distance: CGFloat) -> Double {
            let sun = FieldBehavior.radialGravityField(position: CGPoint(x: 500, y: 500))
            sun.strength = s
            #expect(sun.falloff == 2)
            let a = fieldAcceleration(sun, at: CGPoint(x: 500 + distance, y: 500))
            #expect(abs(a.dy) < 1e-6 && a.dx < 0)
            return -Double(a.dx)
        }
        let near = pull(at: 100), far = pull(at: 200)
        // 100·s at 100 pt; a quarter of that at 200 pt. The step's energy correction, of second
        // order in Δt (3·a/d·Δt² ≈ 8·10⁻⁴·s relative at 100 pt), is the only difference.
        #expect(abs(near - 100 * Double(s)) / (100 * Double(s)) < 1e-3 * max(1, Double(s)))
        #expect(abs(far - 25 * Double(s)) / (25 * Double(s)) < 1e-3 * max(1, Double(s)))
        #expect(abs(near / far - 4) < 4e-3 * max(1, Double(s)))
    }

    /// Falloff 0, set explicitly, is still the uniform pull of UIKit's documentation.
    @Test func issue25Point5FalloffZeroStillGivesAUniformRadialPull() {
        let sun = FieldBehavior.radialGravityField(position: .zero)
        sun.falloff = 0
        let a100 = fieldAcceleration(sun, at: CGPoint(x: 100, y: 0))
        let copy = FieldBehavior.radialGravityField(position: .zero)
        copy.falloff = 0
        let a200 = fieldAcceleration(copy, at: CGPoint(x: 200, y: 0))
        #expect(nearlyEqual(a100.magnitude, 100, relative: 1e-3))
        #expect(nearlyEqual(a200.magnitude, 100, relative: 1e-3))
    }

    /// The default spring (falloff −1) is Hooke's, F = −S·p: a mass-1 item 100 pt out is pulled
    /// at 100 pt/s², 200 pt out at 200 pt/s² — the law the earlier releases had at falloff 0.
    @Test func issue25Point5TheDefaultSpringIsHookes() {
        let one = FieldBehavior.springField()
        #expect(one.falloff == -1)
        let a1 = fieldAcceleration(one, at: CGPoint(x: 100, y: 0))
        let a2 = fieldAcceleration(.springField(), at: CGPoint(x: 0, y: -200))
        #expect(nearlyEqual(a1, CGVector(dx: -100, dy: 0), relative: 1e-6))
        #expect(nearlyEqual(a2, CGVector(dx: 0, dy: 200), relative: 1e-6))
    }

    /// A spring of falloff 0 is UIKit's law at that falloff: the same pull, 100·S, at every distance.
    @Test func issue25Point5ASpringOfFalloffZeroPullsTheSameEverywhere() {
        func pull(_ d: CGFloat) -> Double {
            let spring = FieldBehavior.springField()
            spring.falloff = 0
            return fieldAcceleration(spring, at: CGPoint(x: d, y: 0)).magnitude
        }
        #expect(nearlyEqual(pull(100), 100, relative: 1e-3))
        #expect(nearlyEqual(pull(300), 100, relative: 1e-3))
    }

    /// Electric fields fall as 1/r by default: 100 pt/s² at 100 pt, 50 at 200 pt (mass 1, charge 1).
    @Test func issue25Point5AnElectricFieldFallsAsOneOverR() {
        let a100 = fieldAcceleration(.electricField(), at: CGPoint(x: 100, y: 0), charge: 1)
        let a200 = fieldAcceleration(.electricField(), at: CGPoint(x: 200, y: 0), charge: 1)
        #expect(nearlyEqual(a100.magnitude, 100, relative: 2e-3))
        #expect(nearlyEqual(a200.magnitude, 50, relative: 2e-3))
        #expect(a100.dx > 0 && a200.dx > 0)   // like charges repel
    }

    /// Magnetic fields fall as 1/r by default: a charged item turns half as fast 200 pt out.
    @Test func issue25Point5AMagneticFieldTurnsHalfAsFastAtTwiceTheDistance() {
        // ω = S·q·fall/m; one step turns the velocity by ω·Δt.
        func turn(at d: CGFloat) -> Double {
            let rig = FieldRig(.magneticField(), at: CGPoint(x: d, y: 0), charge: 1, velocity: CGPoint(x: 0, y: 100))
            rig.animator.step()
            let v = rig.velocity
            return abs(atan2(Double(v.x), Double(v.y)))
        }
        let dt = 1.0 / 60
        #expect(nearlyEqual(turn(at: 100), dt, relative: 1e-3))
        #expect(nearlyEqual(turn(at: 200), dt / 2, relative: 2e-2))
    }

    /// A snapshot keeps the falloff it stored, whatever the defaults: a field set to 0 comes back at
    /// 0, a default radial field at 2.
    @Test func issue25Point5SnapshotsKeepTheStoredFalloff() throws {
        let animator = DynamicAnimator()
        let item = square(10, at: CGPoint(x: 150, y: 0))
        let uniform = FieldBehavior.radialGravityField(position: .zero)
        uniform.falloff = 0
        uniform.addItem(item)
        let sun = FieldBehavior.radialGravityField(position: .zero)
        sun.addItem(item)
        animator.addBehavior(uniform)
        animator.addBehavior(sun)
        animator.step()
        let snapshot = animator.snapshot()
        uniform.falloff = 3
        sun.falloff = -2
        try animator.restore(snapshot)
        #expect(uniform.falloff == 0)
        #expect(sun.falloff == 2)
    }
}
