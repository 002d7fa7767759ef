import Foundation

/// A user spring's impulse for one sub-step: the springs of distance joints, the revolute angular
/// spring and soft welds (issue 16, "Undamped springs keep their energy").
///
/// ## Why not the soft step
/// Box2D v3 solves its springs as soft constraints (``Softness``), which is implicit Euler: with
/// the stiffness evaluated at the end of the sub-step, each sub-step multiplies an undamped
/// spring's amplitude by (1 + h²ω²)^(−1/2), and solving the spring again in every solve and relax
/// pass takes more. At 2 Hz an undamped attachment kept 85 % of its amplitude after its first
/// swing and 0.15 % after 10 s. Users of UIKit ask for damping 0 to get a spring that swings on.
///
/// ## The step
/// For a spring of natural frequency ω = 2π·hertz and damping ratio ζ on a constraint of effective
/// mass m, position error C and velocity error Ċ, the sub-step's impulse λ satisfies
///
///     λ = −m·(h·ω²·C₀ + G·Ċ₁)
///
/// where C₀ is the error at the start of the sub-step (the stiffness is explicit: with the
/// position update that follows, the pair is symplectic Euler, which conserves the energy of an
/// undamped oscillator up to a bounded O(h²ω²) wobble) and Ċ₁ the velocity error after the impulse
/// (the damping is implicit, so any amount of it is stable). The stiffness term is exactly h·k/m,
/// so a spring under a constant load rests at the stretch F/k. The damping term G is chosen so that
/// the discrete oscillator decays at the continuous one's rate:
/// - ζ < 1: G = e^{2ζωh} − 1, making each sub-step shrink the oscillation by exactly e^{−ζωh} (the
///   envelope e^{−ζωt}); the period then is 2π/(ω√(1−ζ²)) up to a relative O(ζωh).
/// - ζ ≥ 1: G makes the slow mode e^{−σh}, σ = ω(ζ − √(ζ²−1)), an exact eigenvalue of the step
///   (G = e^{σh} − 1 + h²ω²/(1 − e^{−σh})): an over-damped spring creeps back at its own rate.
/// - Neither may exceed discrete critical damping G_c = hω(2 + hω) on the wrong side: G is capped
///   at G_c for ζ < 1 and raised to it for ζ ≥ 1 when the exact slow mode cannot be the slowest
///   one (both happen only when hω is near or above 1).
///
/// ## Stiff springs
/// Symplectic Euler is stable only while hω < 2. So a spring is integrated without numerical loss
/// only while h·ω ≤ 1, that is up to 1/(2πh) Hz (38 Hz at UIKit's 240 sub-steps a second). A
/// stiffer one gets G ≥ h²ω² − 1: each sub-step then shrinks its oscillation by at least a factor
/// 1/(hω) (0.64 for 60 Hz at 240 Hz), so it stays bounded at any stiffness and behaves as a stiff,
/// quickly settling spring.
///
/// Springs on one body add up: n springs of ω on an item vibrate it at up to √n·ω, and 16 springs
/// of 30 Hz on one item blew up (measured). So the rule is applied to the body's combined load:
/// `loadFactor` ≥ 1 is the more loaded body's Σ ω²·share over its springs (a Gershgorin bound on
/// its fastest mode; `share` = (1/m + 1/√(m·m′)) / (1/m + 1/m′) for a spring to a body of mass m′,
/// 1 to a fixed anchor) divided by this spring's own term. With A = h²ω²·loadFactor > 1 the spring
/// gets G ≥ (A − 1)/loadFactor, its share of the damping the combined spring needs; a lone spring
/// (loadFactor 1) keeps the rule above.
///
/// ## Solving it
/// In the sub-step's solve passes the impulse increment is
/// `Δ = −m·(massScale·Ċ + positionRate·C) − impulseScale·λ`, the Newton step of the equation above
/// (exact after one pass for one spring; the warm start only changes the guess). The relax passes,
/// which remove position-correction velocity from the rigid constraints, leave springs alone: a
/// spring's pull is motion, not error.
package struct SpringStep: Sendable, Equatable, Codable {
    /// G/(1+G): the share of the velocity error removed per pass (0 for an undamped spring, within
    /// the stable range).
    package var massScale: Float
    /// h·ω²/(1+G) (1/s): times the position error (pt or rad) gives the velocity change the
    /// stiffness asks for.
    package var positionRate: Float
    /// 1/(1+G): the share of the accumulated impulse the pass replaces.
    package var impulseScale: Float

    /// No spring: no impulse.
    package static let none = SpringStep(massScale: 0, positionRate: 0, impulseScale: 0)

    /// Coefficients given directly (see the properties for their units).
    package init(massScale: Float, positionRate: Float, impulseScale: Float) {
        self.massScale = massScale; self.positionRate = positionRate; self.impulseScale = impulseScale
    }

    /// The highest frequency (Hz) integrated without numerical loss at sub-step `h` (s): 1/(2πh).
    package static func losslessLimit(h: Float) -> Float { 1 / (2 * Float.pi * h) }

    /// - Parameters: hertz (Hz; ≤ 0 or non-finite gives ``none``), zeta (damping ratio; negative
    ///   or NaN is 0, +∞ holds the constraint's velocity), h (sub-step, s), loadFactor (≥ 1: how
    ///   much stiffer the springs on the more loaded body are together than this one alone; see
    ///   "Stiff springs"; default 1, a lone spring).
    package init(hertz: Float, zeta: Float, h: Float, loadFactor: Float = 1) {
        guard hertz > 0, hertz.isFinite, h > 0, h.isFinite else { self = .none; return }
        let z = zeta.isNaN ? 0 : max(Double(zeta), 0)
        let omega = 2 * Double.pi * Double(hertz)
        let x = omega * Double(h)          // h·ω
        let a = x * x                      // h²ω²
        let critical = x * (2 + x)         // G_c
        var g: Double
        if z < 1 {
            g = min(expm1(2 * z * x), critical)
        } else {
            // slow mode σ = ω(ζ − √(ζ²−1)) = ω / (ζ + √(ζ²−1)), without the cancellation
            let s = x / (z + (z * z - 1).squareRoot())
            let gb = expm1(s) + a / -expm1(-s)
            // the exact slow mode e^{−s} is the slowest eigenvalue iff e^{−2s}·(1 + G) ≥ 1
            if !gb.isFinite {
                g = .infinity   // ζ → ∞ (s → 0): the velocity error is held at zero
            } else {
                g = exp(-2 * s) * (1 + gb) >= 1 ? gb : critical
            }
        }
        let load = loadFactor.isFinite ? max(Double(loadFactor), 1) : 1
        g = max(g, (a * load - 1) / load)
        guard g.isFinite, (1 + g).isFinite, a.isFinite else {
            // so stiff or so damped that the numbers overflow: the limit, a constraint that
            // removes the velocity error and applies no stiffness
            massScale = 1; positionRate = 0; impulseScale = 0
            return
        }
        let inv = 1 / (1 + g)
        massScale = Float(g * inv)
        positionRate = Float(x * omega * inv)
        impulseScale = Float(inv)
    }
}
