import Foundation

/// A field batch's view of its crowd's columns (see ``FieldCrowd``): raw pointers, valid while
/// the arrays they point into are held by the caller, so a range of items on a worker thread loads
/// four items' values at once without retaining an array or checking bounds per item.
struct FieldColumns {
    let x: UnsafePointer<Double>, y: UnsafePointer<Double>
    let vx: UnsafePointer<Double>, vy: UnsafePointer<Double>
    let mass: UnsafePointer<Double>
    /// The items' charges; nil when the law does not read them.
    let charge: UnsafePointer<Double>?

    /// A lane's worth of values of `column` from index `k` on.
    @inline(__always)
    func lanes(_ column: UnsafePointer<Double>, _ k: Int) -> FieldLanes {
        UnsafeRawPointer(column + k).loadUnaligned(as: FieldLanes.self)
    }
}

/// A field's region test over four points at once, bit for bit `Region.contains(x:y:)`: the
/// common regions — everywhere, nowhere, one circle, one rectangle — compare in lanes; a composed
/// region runs its program per lane.
enum RegionLanes {
    case everywhere
    case nowhere
    /// The radius squared (pt²), as `Region` compares it.
    case circle(radiusSquared: Double)
    /// Half the width and height (pt).
    case rectangle(halfWidth: Double, halfHeight: Double)
    case composed(Region)

    init(_ region: Region) {
        if region.program.count == 1 {
            switch region.program[0] {
            case .everything: self = .everywhere; return
            case .nothing: self = .nowhere; return
            case .circle(let r): self = .circle(radiusSquared: r * r); return
            case .rectangle(let w, let h): self = .rectangle(halfWidth: w / 2, halfHeight: h / 2); return
            default: break
            }
        }
        self = .composed(region)
    }

    /// Whether the region holds each of the four points (`x[i]`, `y[i]`) (pt, from the field's
    /// position); false for a non-finite point.
    @inline(__always)
    func contains(_ x: FieldLanes, _ y: FieldLanes) -> FieldLaneMask {
        let finite = (laneMagnitude(x) .< .infinity) .& (laneMagnitude(y) .< .infinity)
        switch self {
        case .everywhere: return FieldLaneMask(repeating: true)
        case .nowhere: return FieldLaneMask(repeating: false)
        case .circle(let r2): return finite .& (x * x + y * y .<= r2)
        case .rectangle(let hw, let hh): return finite .& (laneMagnitude(x) .< hw) .& (laneMagnitude(y) .< hh)
        case .composed(let region):
            var inside = FieldLaneMask(repeating: false)
            for lane in 0..<FieldLanes.scalarCount { inside[lane] = region.contains(x: x[lane], y: y[lane]) }
            return inside
        }
    }

    /// `contains` for one point.
    @inline(__always)
    func contains(_ x: Double, _ y: Double) -> Bool {
        switch self {
        case .everywhere: return true
        case .nowhere: return false
        case .composed(let region): return region.contains(x: x, y: y)
        default:
            guard x.isFinite, y.isFinite else { return false }
            if case .circle(let r2) = self { return x * x + y * y <= r2 }
            if case .rectangle(let hw, let hh) = self { return abs(x) < hw && abs(y) < hh }
            return false
        }
    }
}
