import Foundation
import Testing

import Dynamics

/// One item under one field, in an animator with no gravity, and the means to read its motion.
struct FieldRig {
    let animator = DynamicAnimator()
    let item: BasicDynamicItem
    /// Holds the item's density, charge and velocity; also how its velocity is read.
    let material: DynamicItemBehavior
    let field: FieldBehavior

    /// - Parameters:
    ///   - field: A field not yet in an animator; the item is added to it.
    ///   - center: The item's center (pt).
    ///   - side: The item's side (pt); 100 with density 1 is mass 1.
    ///   - density: The item's density.
    ///   - charge: The item's charge.
    ///   - velocity: The item's initial velocity (pt/s).
    init(_ field: FieldBehavior, at center: CGPoint, side: CGFloat = 100, density: CGFloat = 1,
         charge: CGFloat = 0, velocity: CGPoint = .zero) {
        item = square(side, at: center)
        material = DynamicItemBehavior(items: [item])
        if density != 1 { material.density = density }
        if charge != 0 { material.charge = charge }
        if velocity != .zero { material.addLinearVelocity(velocity, for: item) }
        self.field = field
        field.addItem(item)
        animator.addBehavior(material)
        animator.addBehavior(field)
    }

    var velocity: CGPoint { material.linearVelocity(for: item) }

    /// The mean acceleration (pt/s²) over the next `steps` steps: Δv / Δt.
    func acceleration(steps: Int = 1) -> CGVector {
        let v0 = velocity
        for _ in 0..<steps { animator.step() }
        let v1 = velocity
        let t = Double(steps) * animator.stepDuration
        return CGVector(dx: (v1.x - v0.x) / t, dy: (v1.y - v0.y) / t)
    }
}

/// The acceleration (pt/s²) that a fresh `field` gives one item at rest (or moving at `velocity`)
/// at `center`, measured over one step.
func fieldAcceleration(_ field: FieldBehavior, at center: CGPoint, side: CGFloat = 100, density: CGFloat = 1,
                       charge: CGFloat = 0, velocity: CGPoint = .zero) -> CGVector {
    FieldRig(field, at: center, side: side, density: density, charge: charge, velocity: velocity).acceleration()
}

/// Whether `a` and `b` agree within `relative` of the larger magnitude, or `absolute`.
func nearlyEqual(_ a: Double, _ b: Double, relative: Double = 1e-4, absolute: Double = 1e-6) -> Bool {
    abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
}

/// Whether two vectors agree component-wise, as `nearlyEqual`.
func nearlyEqual(_ a: CGVector, _ b: CGVector, relative: Double = 1e-4, absolute: Double = 1e-3) -> Bool {
    let scale = max(length(a), length(b))
    return abs(a.dx - b.dx) <= max(absolute, relative * scale) && abs(a.dy - b.dy) <= max(absolute, relative * scale)
}

/// Every field factory, with a name for parameterised tests.
enum FieldMaker: String, CaseIterable, CustomStringConvertible, Sendable {
    case drag, vortex, radialGravity, linearGravity, velocity, noise, turbulence, spring, electric, magnetic, custom

    var description: String { rawValue }

    func make() -> FieldBehavior {
        switch self {
        case .drag: return .dragField()
        case .vortex: return .vortexField()
        case .radialGravity: return .radialGravityField(position: .zero)
        case .linearGravity: return .linearGravityField(direction: CGVector(dx: 0, dy: 1))
        case .velocity: return .velocityField(direction: CGVector(dx: 1, dy: 0))  // 100 pt/s
        case .noise: return .noiseField(smoothness: 0.5, animationSpeed: 1)
        case .turbulence: return .turbulenceField(smoothness: 0.5, animationSpeed: 1)
        case .spring: return .springField()
        case .electric: return .electricField()
        case .magnetic: return .magneticField()
        case .custom: return .field { _, _, _, mass, _, _ in CGVector(dx: 0, dy: 1000 * mass) }
        }
    }

    /// Whether the law is linear in ``FieldBehavior/strength`` (the velocity field ignores it;
    /// drag and magnetic fields are applied as exact solutions over the step).
    var isLinearInStrength: Bool { ![.custom, .velocity, .drag, .magnetic].contains(self) }

    /// An item state under which the field gives a non-zero force: (center, charge, velocity).
    var probe: (CGPoint, CGFloat, CGPoint) {
        switch self {
        case .drag, .turbulence, .magnetic: return (CGPoint(x: 60, y: 80), 1, CGPoint(x: 120, y: -50))
        default: return (CGPoint(x: 60, y: 80), 1, .zero)
        }
    }
}

/// The length of `v`, in its units.
func length(_ v: CGVector) -> CGFloat { hypot(v.dx, v.dy) }
