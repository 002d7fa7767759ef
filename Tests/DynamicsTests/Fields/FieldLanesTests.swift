import DynamicsEngine
import Foundation
import Testing

@testable import Dynamics

/// The SIMD lanes of the built-in field laws (issue 27.4) give the scalar law's forces bit for bit,
/// and a step with several fields on a shared read of the items' motion is the per-item path's step.
@Suite("FieldBehavior lanes")
struct FieldLanesTests {
    // MARK: Inputs

    /// Item states (rx, ry, vx, vy, mass, charge) that probe every branch: the position itself
    /// (zero distance), the minimum radius and the core on both sides, the region's edge (300 pt),
    /// lattice points of the noise, ±0, huge and non-finite values — and a seeded spread.
    static func states() -> [(Double, Double, Double, Double, Double, Double)] {
        var out: [(Double, Double, Double, Double, Double, Double)] = []
        let specials: [Double] = [
            0, -0.0, 1e-300, 0.001, 0.0010000001, 1, -1, 7.5, 14.9, 15, 15.1, 20, 87.5, 100,
            299.999, 300, 300.001, -300, 1e7, -1e7, 1e16, .infinity, -.infinity, .nan,
        ]
        let speeds: [Double] = [0, -0.0, 3, -250, 1e5, .nan]
        for (a, x) in specials.enumerated() {
            for (b, y) in [0, -0.0, 15, -87.5, 300, .nan].enumerated() {
                let v = speeds[(a + b) % speeds.count], w = speeds[(a * 3 + b) % speeds.count]
                let m = [0.0016, 1, 0.25, 0, 1e-30][(a + 2 * b) % 5]
                let q = [0.0, 1, -2, 0.5][(a + b) % 4]
                out.append((x, y, v, w, m, q))
            }
        }
        var random = SplitMix(seed: 27)
        for _ in 0..<2000 {
            let r = random.uniform(0, 600), angle = random.uniform(0, 2 * Double.pi)
            let v = (random.uniform(-400, 400), random.uniform(-400, 400))
            let m = [0.0016, 1, 3.5][Int(random.next() % 3)], q = [0.0, 1, -1.5][Int(random.next() % 3)]
            out.append((r * cos(angle), r * sin(angle), v.0, v.1, m, q))
        }
        return out
    }

    /// Fields of every built-in kind, with default and unusual falloffs, minimum radii, strengths
    /// and noise settings.
    static func fields() -> [FieldBehavior] {
        var out: [FieldBehavior] = []
        let makers: [() -> FieldBehavior] = [
            { FieldBehavior.linearGravityField(direction: CGVector(dx: 0.3, dy: -1)) },
            { FieldBehavior.radialGravityField(position: .zero) },
            { FieldBehavior.vortexField() },
            { FieldBehavior.dragField() },
            {
                let f = FieldBehavior.dragField(); f.direction = CGVector(dx: 1, dy: 0.5); return f
            },
            { FieldBehavior.velocityField(direction: CGVector(dx: -2, dy: 1)) },
            { FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1) },
            { FieldBehavior.noiseField(smoothness: 0, animationSpeed: 0) },
            { FieldBehavior.turbulenceField(smoothness: 0.2, animationSpeed: 3) },
            { FieldBehavior.springField() },
            { FieldBehavior.electricField() },
            { FieldBehavior.magneticField() },
        ]
        for make in makers {
            out.append(make())
            for falloff: CGFloat in [0, 1, 2, -1, 0.5, -2.5] {
                let f = make()
                f.falloff = falloff
                f.strength = falloff < 0 ? -3 : 40
                out.append(f)
            }
            let f = make()
            f.minimumRadius = 20
            f.strength = 0.0000128
            out.append(f)
        }
        return out
    }

    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    // MARK: Laws

    /// Every lane of `accelerations` is `acceleration` of that lane's item, to the bit, for every
    /// built-in kind, at every probe state (the noise at a time where its gradients turn, and at 0).
    @Test func lanesAreTheScalarLawBitForBit() {
        let states = Self.states()
        var compared = 0
        for field in Self.fields() {
            for time in [0.0, 0.7] {
                field.noiseTime = time
                let law = FieldLaw(field, substeps: 4, dt: 1.0 / 60)
                var memo = CoreRadiusMemo()
                let w = FieldLanes.scalarCount
                for start in stride(from: 0, to: states.count - w + 1, by: w) {
                    var rx = FieldLanes(), ry = FieldLanes(), vx = FieldLanes(), vy = FieldLanes(), m = FieldLanes(),
                        q = FieldLanes()
                    for i in 0..<w {
                        (rx[i], ry[i], vx[i], vy[i], m[i], q[i]) = states[start + i]
                    }
                    let (ax, ay) = law.accelerations(rx: rx, ry: ry, vx: vx, vy: vy, mass: m, charge: q, memo: &memo)
                    for i in 0..<w {
                        let (sx, sy) = law.acceleration(
                            rx: rx[i], ry: ry[i], vx: vx[i], vy: vy[i],
                            mass: m[i], charge: q[i])
                        let ok = Self.same(ax[i], sx) && Self.same(ay[i], sy)
                        #expect(
                            ok,
                            """
                            \(field.kind) falloff \(field.falloff) at \(states[start + i]): \
                            lanes (\(ax[i]), \(ay[i])), scalar (\(sx), \(sy))
                            """)
                        if !ok { return }
                        compared += 1
                    }
                }
            }
        }
        #expect(compared > 200_000)
    }

    /// The noise in lanes is `SimplexNoise.sample` to the bit: on lattice points and simplex faces,
    /// at ±0, near and beyond the coordinate limit, at non-finite points, with and without turned
    /// gradients.
    @Test func noiseLanesAreTheScalarNoise() {
        var points: [(Double, Double)] = []
        for x in stride(from: -3.0, through: 3.0, by: 0.5) {
            for y in stride(from: -3.0, through: 3.0, by: 0.25) { points.append((x, y)) }
        }
        points += [
            (0, -0.0), (-0.0, 0), (-0.0, -0.0), (1e15, 0), (-1e15 + 1, 3), (9.99e14, -9.99e14),
            (2e15, 1), (.nan, 0), (0, .infinity), (-.infinity, .nan),
            (Double.leastNonzeroMagnitude, -Double.leastNormalMagnitude), (0.49999999999999994, -0.5000000000000001),
        ]
        var random = SplitMix(seed: 4)
        for _ in 0..<4000 { points.append((random.uniform(-1e4, 1e4), random.uniform(-50, 50))) }
        let w = FieldLanes.scalarCount
        for (z, angle) in [(0.0, 0.0), (0.3, 0.3), (-7.25, 2.0), (1e15, 1)] {
            let c = cos(angle), s = sin(angle)
            for start in stride(from: 0, to: points.count - w + 1, by: w) {
                var x = FieldLanes(), y = FieldLanes()
                for i in 0..<w { (x[i], y[i]) = points[start + i] }
                let lanes = SimplexNoise.sample(x, y, z, cosine: c, sine: s, seed: 0x1234_5678)
                for i in 0..<w {
                    let one = SimplexNoise.sample(x[i], y[i], z, cosine: c, sine: s, seed: 0x1234_5678)
                    let ok =
                        Self.same(lanes.value[i], one.value) && Self.same(lanes.dx[i], one.dx)
                        && Self.same(lanes.dy[i], one.dy)
                    #expect(ok, "noise at (\(x[i]), \(y[i]), \(z))")
                }
            }
        }
    }

    /// The region test in lanes, and its one-point form, are `Region.contains` — on the edges of a
    /// circle and a rectangle (inside and outside by one ulp), for a composed region and for
    /// non-finite points.
    @Test func regionLanesAreTheRegionTest() {
        let regions = [
            Region(radius: 300), Region(size: CGSize(width: 1024, height: 768)),
            Region(radius: 100).byUnion(with: Region(size: CGSize(width: 50, height: 400)))
                .inverse(),
            Region(radius: 0), Region.infinite.inverse(),
        ]
        let edge = 300.0, half = 512.0
        let xs: [Double] = [
            0, -0.0, edge, edge.nextUp, edge.nextDown, -edge, half, half.nextDown, -half, 384, 25,
            25.nextUp, 100, .nan, .infinity, -.infinity, 1e300,
        ]
        for region in regions {
            let test = RegionLanes(region)
            for a in xs {
                for b in xs {
                    let lanes = test.contains(FieldLanes(repeating: a), FieldLanes(repeating: b))
                    let expected = region.contains(x: a, y: b)
                    #expect(lanes[0] == expected && test.contains(a, b) == expected, "\(region) at (\(a), \(b))")
                }
            }
        }
    }

    // MARK: Steps

    /// A scene of many fields on overlapping crowds — the ui_fields trio plus every other built-in
    /// kind, with regions, charges and mixed masses, an instantaneous push and a gravity behaviour
    /// between fields of one crowd — stepped with lanes, shared reads and forces held for one
    /// store, and item by item with a read per field and forces applied at once: every item ends
    /// at the same bits. (The gravity between two fields of the trio is the case a held force
    /// could lose: it must reach the bodies with the fields' forces around it.)
    @Test(arguments: [1, 2])
    func stepWithSeveralFieldsIsThePerItemStep(threads: Int) {
        func run(lanes: Bool) -> [UInt64] {
            let bounds = CGRect(x: 0, y: 0, width: 1024, height: 768)
            let animator = DynamicAnimator(referenceBounds: bounds, workerCount: threads)
            let center = CGPoint(x: 512, y: 384)
            var fields: [FieldBehavior] = []
            let vortex = FieldBehavior.vortexField()
            vortex.position = center; vortex.strength = 0.000_012_8; vortex.region = Region(radius: 300)
            let radial = FieldBehavior.radialGravityField(position: center)
            radial.strength = 5; radial.falloff = 0; radial.region = Region(radius: 500)
            let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
            noise.position = center; noise.strength = 0.0063; noise.region = Region(size: bounds.size)
            fields += [vortex, radial, noise]
            let electric = FieldBehavior.electricField()
            electric.position = CGPoint(x: 300, y: 300); electric.strength = 0.02
            let magnetic = FieldBehavior.magneticField()
            magnetic.position = CGPoint(x: 700, y: 400); magnetic.strength = 0.01
            let spring = FieldBehavior.springField()
            spring.position = center; spring.strength = 0.0004; spring.falloff = 0.5
            let drag = FieldBehavior.dragField()
            drag.strength = 0.001
            drag.region = Region(radius: 200).byUnion(with: Region(size: CGSize(width: 100, height: 900)))
            drag.position = center
            let turbulence = FieldBehavior.turbulenceField(smoothness: 0.3, animationSpeed: 2)
            turbulence.strength = 0.5
            fields += [electric, magnetic, spring, drag, turbulence]
            // Charges 0, 1 and −1.5, by item
            let materials = [DynamicItemBehavior(), DynamicItemBehavior(), DynamicItemBehavior()]
            materials[1].charge = 1
            materials[2].charge = -1.5
            let push = PushBehavior(items: [], mode: .instantaneous)
            push.pushDirection = CGVector(dx: 0.001, dy: -0.002)
            var items: [BasicDynamicItem] = []
            for j in 0..<23 {
                for i in 0..<29 {
                    let center = CGPoint(x: 1024 * (Double(i) + 0.5) / 29, y: 768 * (Double(j) + 0.5) / 23)
                    let item = BasicDynamicItem(center: center, size: CGSize(width: 4 + Double((i + j) % 3), height: 4))
                    materials[items.count % 3].addItem(item)
                    items.append(item)
                    vortex.addItem(item); radial.addItem(item); noise.addItem(item)
                    if (i + j) % 2 == 0 { electric.addItem(item); magnetic.addItem(item) }
                    if j % 3 == 0 { spring.addItem(item); drag.addItem(item); turbulence.addItem(item) }
                    if i % 5 == 0 { push.addItem(item) }
                }
            }
            for field in fields { field.evaluatesInLanes = lanes }
            for material in materials { animator.addBehavior(material) }
            let gravity = GravityBehavior(items: items.enumerated().filter { $0.offset % 4 == 1 }.map(\.element))
            gravity.magnitude = 0.3
            animator.addBehavior(vortex)
            animator.addBehavior(push)
            animator.addBehavior(radial)
            animator.addBehavior(gravity)
            for field in fields.dropFirst(2) { animator.addBehavior(field) }
            for _ in 0..<40 { animator.step() }
            return items.flatMap { [Double($0.center.x).bitPattern, Double($0.center.y).bitPattern] }
        }
        let lanes = run(lanes: true), perItem = run(lanes: false)
        #expect(lanes.count == 2 * 23 * 29)
        #expect(lanes == perItem)
        #expect(Set(lanes).count > 100)  // the items moved apart: the comparison means something
    }

    /// The three fields of ui_fields share one crowd, and one read of it a step.
    @Test func fieldsOnTheSameItemsShareOneRead() {
        let animator = DynamicAnimator()
        let a = FieldBehavior.vortexField(), b = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
        let c = FieldBehavior.radialGravityField(position: .zero)
        let items = (0..<10).map {
            BasicDynamicItem(center: CGPoint(x: 10 * Double($0), y: 5), size: CGSize(width: 4, height: 4))
        }
        for item in items { a.addItem(item); b.addItem(item) }
        for item in items.reversed() { c.addItem(item) }  // other order: a crowd of its own
        for f in [a, b, c] { animator.addBehavior(f) }
        animator.step()
        #expect(a.crowd != nil && a.crowd === b.crowd)
        #expect(c.crowd != nil && c.crowd !== a.crowd)
    }

    /// A crowd large enough to be read, pushed and kept awake in parts on two threads (4 100
    /// items) under an animated noise field over its left half: adding the field wakes every
    /// item; 40 steps (2/3 s) later the items in its region are awake and have moved, the others
    /// fell asleep after the half second at rest (so the parts hold sleeping bodies: mass 0 in
    /// the read, no force, no timer restart) and stayed where they were — on two threads bit for
    /// bit as on one. (The pushed items move faster than the sleep speed, so this does not show
    /// the keep-awake pass itself; `LivingFieldTests` does, on one thread.)
    @Test func aLargeCrowdHalfInAFieldIsKeptAwakeAlikeOnOneAndTwoThreads() {
        func run(threads: Int) -> [UInt64] {
            let animator = DynamicAnimator(referenceBounds: CGRect(x: 0, y: 0, width: 1024, height: 768),
                                           workerCount: threads)
            let items = (0..<4_100).map { k in
                BasicDynamicItem(
                    center: CGPoint(x: 5 + 10 * Double(k % 100), y: 5 + 10 * Double(k / 100)),
                    size: CGSize(width: 4, height: 4))
            }
            let starts = items.map(\.center)
            let noise = FieldBehavior.noiseField(smoothness: 0.5, animationSpeed: 1)
            noise.strength = 0.0063
            noise.position = CGPoint(x: 256, y: 384)
            noise.region = Region(size: CGSize(width: 512, height: 768))   // 0 < x < 512
            for item in items { noise.addItem(item) }
            animator.addBehavior(noise)
            for _ in 0..<40 { animator.step() }
            let inside = items.indices.filter { starts[$0].x < 512 }
            #expect(inside.count == 51 * 41)
            #expect(animator.statistics.awakeItems == inside.count, "\(threads) threads")
            #expect(inside.allSatisfy { items[$0].center != starts[$0] }, "\(threads) threads")
            #expect(items.indices.allSatisfy { starts[$0].x < 512 || items[$0].center == starts[$0] })
            return items.flatMap { [UInt64(Double($0.center.x).bitPattern), UInt64(Double($0.center.y).bitPattern)] }
        }
        #expect(run(threads: 1) == run(threads: 2))
    }
}

/// SplitMix64, for the probes.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() >> 11) / Double(1 << 53) }
}
