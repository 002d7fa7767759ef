import Foundation
import DynamicsEngine
import Testing

/// Mass properties against the formulas, hulls, rejected geometry, and destruction that keeps the
/// world's bookkeeping valid. Mass = density × area / 10 000 (100 pt per metre).
@Suite struct ShapeTests {
    /// |a − b| ≤ abs + rel·|b|.
    static func close(_ a: Float, _ b: Float, rel: Float = 1e-5, abs tol: Float = 1e-7) -> Bool {
        Swift.abs(a - b) <= tol + rel * Swift.abs(b)
    }

    static func body(_ w: World, at p: Vec2 = .zero, angle: Float = 0) -> BodyID {
        var bd = BodyDef()
        bd.position = p
        bd.angle = angle
        return w.createBody(bd)
    }

    static func shapeDef(density: Float) -> ShapeDef {
        var sd = ShapeDef()
        sd.density = density
        return sd
    }

    @Test(arguments: [(Float(10), Float(10), Float(1)), (50, 5, 2.5), (3, 120, 0.2)])
    func boxMassIsDensityTimesAreaAndInertiaIsMassTimesDiagonalSquaredOverTwelve(w: Float, h: Float, density: Float) {
        let world = makeWorld()
        let b = Self.body(world)
        // off-centre and turned: about its own centre the inertia is the same
        world.createShape(on: b, Self.shapeDef(density: density), .box(halfWidth: w / 2, halfHeight: h / 2, center: Vec2(7, -3), angle: 0.4))
        let m = density * w * h / 10_000
        #expect(Self.close(world.mass(b), m), "mass \(world.mass(b)), expected \(m)")
        let I = m * (w * w + h * h) / 12
        #expect(Self.close(world.rotationalInertia(b), I, rel: 1e-4), "inertia \(world.rotationalInertia(b)), expected \(I)")
        #expect(distance(world.localCenter(b), Vec2(7, -3)) < 1e-4)
    }

    @Test(arguments: [(Float(5), Float(1)), (20, 3), (0.5, 100)])
    func circleMassIsDensityTimesPiRSquaredAndInertiaIsHalfMRSquared(r: Float, density: Float) {
        let world = makeWorld()
        let b = Self.body(world)
        world.createShape(on: b, Self.shapeDef(density: density), .circle(center: Vec2(-4, 9), radius: r))
        let m = density * Float.pi * r * r / 10_000
        #expect(Self.close(world.mass(b), m), "mass \(world.mass(b)), expected \(m)")
        #expect(Self.close(world.rotationalInertia(b), m * r * r / 2, rel: 1e-4), "inertia \(world.rotationalInertia(b)), expected \(m * r * r / 2)")
        #expect(world.localCenter(b) == Vec2(-4, 9))
    }

    /// A right triangle with legs a = b = 30 given with an interior point and a duplicate: the hull is
    /// the triangle, its centroid (10, 10), its inertia about the centroid m(a² + b² + c²)/36 = 100 m.
    @Test func polygonMassPropertiesOfATriangle() {
        let world = makeWorld()
        let b = Self.body(world)
        let s = world.createShape(on: b, Self.shapeDef(density: 2),
                                  .polygon([Vec2(0, 0), Vec2(5, 5), Vec2(30, 0), Vec2(0, 30), Vec2(30, 0)]))
        #expect(s != nil)
        let m: Float = 2 * 450 / 10_000
        #expect(Self.close(world.mass(b), m))
        #expect(distance(world.localCenter(b), Vec2(10, 10)) < 1e-4)
        #expect(Self.close(world.rotationalInertia(b), 100 * m, rel: 1e-4), "inertia \(world.rotationalInertia(b)), expected \(100 * m)")
        #expect(world.outline(s!).points.count == 3)
    }

    /// A concave L given as its six corners becomes its convex hull: the inner corner drops out and
    /// the mass is that of the hull (1 600 − 450 = 1 150 pt²).
    @Test func concavePointSetBecomesItsHull() {
        let world = makeWorld()
        let b = Self.body(world)
        let l = [Vec2(0, 0), Vec2(40, 0), Vec2(40, 10), Vec2(10, 10), Vec2(10, 40), Vec2(0, 40)]
        let s = world.createShape(on: b, ShapeDef(), .polygon(l))!
        let hull = world.outline(s).points
        let expected = [Vec2(0, 0), Vec2(40, 0), Vec2(40, 10), Vec2(10, 40), Vec2(0, 40)]
        #expect(hull.count == expected.count, "hull \(hull)")
        for p in expected { #expect(hull.contains { distance($0, p) < 1e-4 }, "hull \(hull) lacks \(p)") }
        #expect(!hull.contains { distance($0, Vec2(10, 10)) < 1e-3 }, "the concave corner survived")
        // counter-clockwise in a y-up sense: positive signed area
        var area: Float = 0
        for i in 0..<hull.count { area += 0.5 * cross(hull[i], hull[(i + 1) % hull.count]) }
        #expect(Self.close(area, 1150, rel: 1e-5), "signed area \(area)")
        #expect(Self.close(world.mass(b), 1150 / 10_000))
    }

    enum Degenerate: String, CaseIterable, CustomTestStringConvertible {
        case zeroWidthBox, zeroSizeBox, negativeBox, nanRadius, zeroRadius, infiniteCentre,
             collinearPolygon, twoPointPolygon, coincidentPolygon, zeroLengthSegment, nanSegment
        var testDescription: String { rawValue }
        var geometry: ShapeGeometry {
            switch self {
            case .zeroWidthBox: return .box(halfWidth: 0, halfHeight: 10, center: .zero, angle: 0)
            case .zeroSizeBox: return .box(halfWidth: 0, halfHeight: 0, center: .zero, angle: 0)
            case .negativeBox: return .box(halfWidth: -5, halfHeight: 5, center: .zero, angle: 0)
            case .nanRadius: return .circle(center: .zero, radius: .nan)
            case .zeroRadius: return .circle(center: .zero, radius: 0)
            case .infiniteCentre: return .circle(center: Vec2(.infinity, 0), radius: 5)
            case .collinearPolygon: return .polygon([Vec2(0, 0), Vec2(10, 10), Vec2(20, 20), Vec2(-5, -5)])
            case .twoPointPolygon: return .polygon([Vec2(0, 0), Vec2(10, 0)])
            case .coincidentPolygon: return .polygon([Vec2(3, 3), Vec2(3, 3), Vec2(3, 3.0001)])
            case .zeroLengthSegment: return .segment(Vec2(1, 1), Vec2(1, 1))
            case .nanSegment: return .segment(Vec2(0, 0), Vec2(.nan, 1))
            }
        }
    }

    /// Degenerate geometry is refused (nil) and changes nothing: the world steps to the same bits as
    /// a twin that never saw the call.
    @Test(arguments: Degenerate.allCases)
    func degenerateGeometryReturnsNilAndLeavesTheWorldUnchanged(_ kind: Degenerate) {
        func build() -> (World, BodyID) {
            let w = makeWorld()
            addBox(w, .static, at: Vec2(0, 50), half: Vec2(500, 50))
            let b = addBox(w, at: Vec2(0, -100), half: Vec2(20, 10), angle: 0.2)
            return (w, b)
        }
        let (w, b) = build()
        let (twin, _) = build()
        let mass = w.mass(b), inertia = w.rotationalInertia(b), centre = w.localCenter(b)
        let shapes = w.shapeCount
        #expect(w.createShape(on: b, ShapeDef(), kind.geometry) == nil)
        #expect(w.shapeCount == shapes)
        #expect(w.shapes(of: b).count == 1)
        #expect(w.mass(b) == mass && w.rotationalInertia(b) == inertia && w.localCenter(b) == centre)
        #expect(w.validate().isEmpty)
        run(w, steps: 60); run(twin, steps: 60)
        #expect(w.validationErrors.isEmpty)
        #expect(w.stateHash() == twin.stateHash())
        #expect(w.contactCount == twin.contactCount)
    }

    /// A box of mass m₁ and a circle of mass m₂ on one body: mass m₁ + m₂, centre of mass their
    /// weighted mean, inertia the parallel-axis sum about it.
    @Test func twoShapesSumMassesAboutTheCombinedCentre() {
        let world = makeWorld()
        let b = Self.body(world, at: Vec2(100, -50), angle: 0.7)
        world.createShape(on: b, Self.shapeDef(density: 1), .box(halfWidth: 10, halfHeight: 10, center: Vec2(-20, 0), angle: 0))
        world.createShape(on: b, Self.shapeDef(density: 2), .circle(center: Vec2(30, 0), radius: 10))
        let m1: Float = 400 / 10_000, m2: Float = 2 * Float.pi * 100 / 10_000
        let cx = (m1 * -20 + m2 * 30) / (m1 + m2)
        let I = m1 * 800 / 12 + m1 * (-20 - cx) * (-20 - cx) + m2 * 100 / 2 + m2 * (30 - cx) * (30 - cx)
        #expect(Self.close(world.mass(b), m1 + m2))
        #expect(distance(world.localCenter(b), Vec2(cx, 0)) < 1e-4, "local centre \(world.localCenter(b)), expected (\(cx), 0)")
        let expectedWorld = world.transform(b).apply(Vec2(cx, 0))
        #expect(distance(world.worldCenter(b), expectedWorld) < 1e-3)
        #expect(Self.close(world.rotationalInertia(b), I, rel: 1e-4), "inertia \(world.rotationalInertia(b)), expected \(I)")
        // destroying the circle leaves the box's own properties
        world.destroyShape(world.shapes(of: b)[1])
        #expect(Self.close(world.mass(b), m1))
        #expect(distance(world.localCenter(b), Vec2(-20, 0)) < 1e-4)
        #expect(Self.close(world.rotationalInertia(b), m1 * 800 / 12, rel: 1e-4))
        #expect(world.validate().isEmpty)
    }

    /// Seeded churn: bodies with one or two shapes, joints between them, touching a floor and each
    /// other; shapes, bodies and joints destroyed at random between steps. The validation walk is
    /// clean after every step and every destruction, and stale ids stay dead.
    @Test(arguments: [UInt64(11), 12, 13])
    func destroyingShapesBodiesAndJointsKeepsTheWorldValid(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let w = makeWorld(sleep: true, validate: true)
        addBox(w, .static, at: Vec2(0, 50), half: Vec2(1000, 50))
        var bodies: [BodyID] = []
        var joints: [JointID] = []
        var dead: [BodyID] = []
        var deadShapes: [ShapeID] = []
        var deadJoints: [JointID] = []
        for round in 0..<40 {
            // add a few bodies, some joined to an earlier one
            for _ in 0..<3 {
                let p = Vec2(uniform(-300...300, &rng), uniform(-400 ... -30, &rng))
                let b = Bool.random(using: &rng) ? addBox(w, at: p, half: Vec2(uniform(5...20, &rng), uniform(5...20, &rng)))
                                                 : addCircle(w, at: p, radius: uniform(5...20, &rng))
                if Bool.random(using: &rng) {
                    w.createShape(on: b, ShapeDef(), .circle(center: Vec2(uniform(-15...15, &rng), 0), radius: 6))
                }
                if let other = bodies.randomElement(using: &rng), Bool.random(using: &rng) {
                    var jd = JointDef(kind: [JointKind.distance, .revolute, .weld].randomElement(using: &rng)!)
                    jd.bodyA = other; jd.bodyB = b
                    jd.length = distance(w.position(other), p)
                    if let j = w.createJoint(jd) { joints.append(j) }
                }
                bodies.append(b)
            }
            let errors = runValidated(w, steps: 5)
            #expect(errors.isEmpty, "round \(round): \(errors)")
            // destroy something
            switch Int.random(in: 0..<3, using: &rng) {
            case 0 where !bodies.isEmpty:
                let b = bodies.remove(at: Int.random(in: 0..<bodies.count, using: &rng))
                let shapes = w.shapes(of: b)
                w.destroyBody(b)
                dead.append(b); deadShapes += shapes
            case 1 where !bodies.isEmpty:
                let b = bodies.randomElement(using: &rng)!
                let shapes = w.shapes(of: b)
                if shapes.count > 1 {
                    w.destroyShape(shapes[0]); deadShapes.append(shapes[0])
                }
            default:
                if !joints.isEmpty {
                    let j = joints.remove(at: Int.random(in: 0..<joints.count, using: &rng))
                    if w.isValid(j) { w.destroyJoint(j); deadJoints.append(j) }
                }
            }
            let v = w.validate()
            #expect(v.isEmpty, "round \(round) after destroying: \(v)")
            if !v.isEmpty { break }
        }
        for b in dead { #expect(!w.isValid(b)) }
        for s in deadShapes { #expect(!w.isValid(s)) }
        for j in deadJoints { #expect(!w.isValid(j)) }
        // stale ids are refused
        if let b = dead.first {
            #expect(w.createShape(on: b, ShapeDef(), .circle(center: .zero, radius: 5)) == nil)
            #expect(w.mass(b) == 0)
        }
        #expect(w.bodyCount == bodies.count + 1)
        // destroying everything leaves an empty, valid world
        for b in bodies { w.destroyBody(b) }
        #expect(w.validate().isEmpty)
        #expect(w.jointCount == 0)
        #expect(w.contactCount == 0)
        let errors = runValidated(w, steps: 3)
        #expect(errors.isEmpty, "\(errors)")
    }
}
