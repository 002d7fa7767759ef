import Dynamics
import DynamicsEngine
import Foundation

/// A scene that drives the engine directly: Box2D v3's benchmark scenes rebuilt in UIKit units
/// (100 pt per metre, y down), so their timings compare with Box2D's own benchmark program.
package struct EngineScene: Sendable {
    package var name: String
    /// Fixed step count of the benchmark.
    package var steps: Int
    package var enableSleep: Bool
    package var gravity: Vec2 = Vec2(0, 1000)
    /// Builds the scene into a fresh world and returns the per-step hook (nil when the scene has none).
    package var build: @Sendable (World) -> (@Sendable (World, Int) -> Void)?

    package func makeWorld(validate: Bool = DebugSwitches.validatesWorlds, workers: Int = 1) -> (World, (@Sendable (World, Int) -> Void)?) {
        var def = WorldDef()
        def.workerCount = workers
        def.enableSleep = enableSleep
        def.gravity = gravity
        def.validate = validate
        let world = World(def: def)
        let hook = build(world)
        return (world, hook)
    }
}

/// Metres (Box2D, y up) to points (ours, y down).
@inline(__always) func pt(_ x: Float, _ y: Float) -> Vec2 { Vec2(100 * x, -100 * y) }

private func box(_ w: World, _ type: BodyType, at p: Vec2, halfWidth: Float, halfHeight: Float, density: Float = 1,
                 friction: Float = 0.6, awake: Bool = true, angle: Float = 0) -> BodyID {
    var bd = BodyDef()
    bd.type = type
    bd.position = p
    bd.angle = angle
    bd.isAwake = awake
    let b = w.createBody(bd)
    var sd = ShapeDef()
    sd.density = density
    sd.friction = friction
    w.createShape(on: b, sd, .box(halfWidth: halfWidth, halfHeight: halfHeight, center: .zero, angle: 0))
    return b
}

package enum EngineScenes {
    package static let all: [EngineScene] = [
        largePyramid, manyPyramids, jointGrid, tumbler, smash, washer, junkyard, compounds,
    ]

    package static func named(_ name: String) -> EngineScene? { all.first { $0.name == name } }

    /// A pyramid of `rows` rows of `size`-pt boxes on a static ground whose top is at y = 0.
    package static func pyramid(rows: Int, size: Float = 100, world w: World, friction: Float = 0.6) -> [BodyID] {
        _ = box(w, .static, at: Vec2(0, 100), halfWidth: max(10_000, Float(rows) * size), halfHeight: 100, friction: friction)
        var out: [BodyID] = []
        let h = 0.5 * size
        for i in 0..<rows {
            for j in i..<rows {
                let x = (0.5 * Float(i + 1) + Float(j - i) - 0.5 * Float(rows)) * size
                let y = -(h + Float(i) * size)
                out.append(box(w, .dynamic, at: Vec2(x - h, y), halfWidth: h, halfHeight: h, friction: friction))
            }
        }
        return out
    }

    package static let largePyramid = EngineScene(name: "large_pyramid", steps: 500, enableSleep: false) { w in
        _ = box(w, .static, at: pt(0, -1), halfWidth: 10_000, halfHeight: 100)
        for i in 0..<100 {
            for j in i..<100 {
                let x = 0.5 * Float(i + 1) + Float(j - i) - 50
                let y = 0.5 + Float(i)
                _ = box(w, .dynamic, at: pt(x, y), halfWidth: 50, halfHeight: 50)
            }
        }
        return nil
    }

    package static let manyPyramids = EngineScene(name: "many_pyramids", steps: 200, enableSleep: false) { w in
        let ground = w.createBody(BodyDef.with(type: .static))
        for r in 0..<20 {
            w.createShape(on: ground, ShapeDef(), .segment(pt(-110, 11 * Float(r)), pt(110, 11 * Float(r))))
        }
        for r in 0..<20 {
            for c in 0..<20 {
                let cx = -109 + 11 * Float(c)
                for i in 0..<10 {
                    for j in i..<10 {
                        let x = cx - 0.5 + 0.5 * Float(i + 1) + Float(j - i)
                        let y = 11 * Float(r) + 0.5 + Float(i)
                        _ = box(w, .dynamic, at: pt(x, y), halfWidth: 50, halfHeight: 50)
                    }
                }
            }
        }
        return nil
    }

    package static let jointGrid = EngineScene(name: "joint_grid", steps: 500, enableSleep: false) { w in
        let n = 100
        var ids: [BodyID] = []
        ids.reserveCapacity(n * n)
        var sd = ShapeDef()
        sd.filter = Filter(categoryBits: 2, maskBits: ~UInt64(2))
        for k in 0..<n {
            for i in 0..<n {
                var bd = BodyDef()
                bd.type = (i == 0 && k >= 47 && k <= 53) ? .static : .dynamic
                bd.position = pt(Float(k), -Float(i))
                let b = w.createBody(bd)
                w.createShape(on: b, sd, .circle(center: .zero, radius: 40))
                ids.append(b)
            }
        }
        for k in 0..<n {
            for i in 0..<n {
                let b = ids[k * n + i]
                if i > 0 {
                    var jd = JointDef(kind: .revolute)
                    jd.bodyA = ids[k * n + i - 1]; jd.bodyB = b
                    jd.localAnchorA = Vec2(0, 50); jd.localAnchorB = Vec2(0, -50)
                    w.createJoint(jd)   // Box2D also joins the static anchors (inert)
                }
                if k > 0 {
                    var jd = JointDef(kind: .revolute)
                    jd.bodyA = ids[(k - 1) * n + i]; jd.bodyB = b
                    jd.localAnchorA = Vec2(50, 0); jd.localAnchorB = Vec2(-50, 0)
                    w.createJoint(jd)   // Box2D also joins the static anchors (inert)
                }
            }
        }
        return nil
    }

    package static let tumbler = EngineScene(name: "tumbler", steps: 750, enableSleep: true) { w in
        let ground = w.createBody(BodyDef.with(type: .static))
        var bd = BodyDef()
        bd.position = pt(0, 10)
        bd.enableSleep = false
        let drum = w.createBody(bd)
        var sd = ShapeDef()
        sd.density = 50
        w.createShape(on: drum, sd, .box(halfWidth: 50, halfHeight: 1000, center: Vec2(1000, 0), angle: 0))
        w.createShape(on: drum, sd, .box(halfWidth: 50, halfHeight: 1000, center: Vec2(-1000, 0), angle: 0))
        w.createShape(on: drum, sd, .box(halfWidth: 1000, halfHeight: 50, center: Vec2(0, 1000), angle: 0))
        w.createShape(on: drum, sd, .box(halfWidth: 1000, halfHeight: 50, center: Vec2(0, -1000), angle: 0))
        var jd = JointDef(kind: .revolute)
        jd.bodyA = ground; jd.bodyB = drum
        jd.localAnchorA = pt(0, 10); jd.localAnchorB = .zero
        jd.enableMotor = true
        jd.motorSpeed = -25 * Float.pi / 180     // counter-clockwise in Box2D's y-up frame
        jd.maxMotorTorque = 1e8 * 100 * 100      // N·m → mass·pt²/s²
        w.createJoint(jd)
        for i in 0..<45 {
            for j in 0..<45 {
                _ = box(w, .dynamic, at: pt(-9 + 0.4 * Float(j), 1 + 0.4 * Float(i)), halfWidth: 12.5, halfHeight: 12.5)
            }
        }
        return nil
    }

    package static let smash = EngineScene(name: "smash", steps: 300, enableSleep: true, gravity: .zero) { w in
        let p = box(w, .dynamic, at: pt(-20, 0), halfWidth: 400, halfHeight: 400, density: 8)
        w.setLinearVelocity(p, Vec2(4000, 0))
        for i in 0..<120 {
            for j in 0..<80 {
                _ = box(w, .dynamic, at: pt(30 + 0.4 * Float(i), 0.4 * Float(j - 40)), halfWidth: 20, halfHeight: 20, awake: false)
            }
        }
        return nil
    }

    package static let washer = EngineScene(name: "washer", steps: 500, enableSleep: true) { w in
        var bd = BodyDef()
        bd.type = .kinematic
        bd.position = pt(0, 10)
        bd.angularVelocity = -25 * Float.pi / 180
        bd.linearVelocity = Vec2(0.1, 0.2)
        let drum = w.createBody(bd)
        func quad(_ r0: Float, _ r1: Float, _ a0deg: Float, _ a1deg: Float) -> [Vec2] {
            let a0 = a0deg * Float.pi / 180, a1 = a1deg * Float.pi / 180
            return [Vec2(r0 * cosf(a0), r0 * sinf(a0)), Vec2(r1 * cosf(a0), r1 * sinf(a0)),
                    Vec2(r1 * cosf(a1), r1 * sinf(a1)), Vec2(r0 * cosf(a1), r0 * sinf(a1))].map { Vec2(100 * $0.x, -100 * $0.y) }
        }
        for k in 0..<36 {
            w.createShape(on: drum, ShapeDef(), .polygon(quad(16, 18, 10 * Float(k) - 1, 10 * Float(k + 1) + 1)))
        }
        for k in [0, 9, 18, 27] {
            w.createShape(on: drum, ShapeDef(), .polygon(quad(14, 16, 10 * Float(k), 10 * Float(k + 1))))
        }
        for i in 0..<90 {
            for j in 0..<90 {
                _ = box(w, .dynamic, at: pt(-9.9 + 0.21 * Float(j), 0.1 + 0.21 * Float(i)), halfWidth: 10, halfHeight: 10)
            }
        }
        return nil
    }

    package static let junkyard = EngineScene(name: "junkyard", steps: 800, enableSleep: true) { w in
        // one static body with many box shapes, as Box2D builds it
        let ground = w.createBody(BodyDef.with(type: .static))
        for x in -80...80 { w.createShape(on: ground, ShapeDef(), .box(halfWidth: 55, halfHeight: 50, center: pt(Float(x), 0), angle: 0)) }
        for y in 1...50 {
            w.createShape(on: ground, ShapeDef(), .box(halfWidth: 50, halfHeight: 55, center: pt(-80, Float(y)), angle: 0))
            w.createShape(on: ground, ShapeDef(), .box(halfWidth: 50, halfHeight: 55, center: pt(80, Float(y)), angle: 0))
        }
        let golden = Float.pi * (Float(5).squareRoot() - 1)
        let pentagon = (0..<5).map { k -> Vec2 in
            let a = Float(k) * golden
            return Vec2(25 * cosf(a), -25 * sinf(a))
        }
        var sign: Float = -1
        for i in 0..<200 {
            for j in 0..<40 {
                var bd = BodyDef()
                bd.position = pt(-75 + 0.75 * Float(i) + 0.1 * sign, 15 + Float(j))
                sign = -sign
                let b = w.createBody(bd)
                w.createShape(on: b, ShapeDef(), .polygon(pentagon))
            }
        }
        var pd = BodyDef()
        pd.type = .kinematic
        let pusher = w.createBody(pd)
        w.createShape(on: pusher, ShapeDef(), .box(halfWidth: 200, halfHeight: 400, center: pt(0, 4), angle: 0))
        return { world, step in
            // ask the kinematic pusher to reach x = 60 sin(0.2 t) within one step
            let t = Float(step + 1) / 60
            let target = 100 * 60 * sinf(0.2 * t)
            let x = world.position(pusher).x
            world.setLinearVelocity(pusher, Vec2((target - x) * 60, 0))
        }
    }

    package static let compounds = EngineScene(name: "compounds", steps: 500, enableSleep: true) { w in
        let ground = w.createBody(BodyDef.with(type: .static))
        for x in -40...40 { w.createShape(on: ground, ShapeDef(), .box(halfWidth: 55, halfHeight: 50, center: pt(Float(x), 0), angle: 0)) }
        for y in 1...100 {
            w.createShape(on: ground, ShapeDef(), .box(halfWidth: 50, halfHeight: 55, center: pt(-40, Float(y)), angle: 0))
            w.createShape(on: ground, ShapeDef(), .box(halfWidth: 50, halfHeight: 55, center: pt(40, Float(y)), angle: 0))
        }
        w.createShape(on: ground, ShapeDef(), .segment(pt(-800, -80), pt(800, -80)))
        let t1 = [pt(-1, 0), pt(0.5, 1), pt(0, 2)]
        let t2 = [pt(1, 0), pt(-0.5, 1), pt(0, 2)]
        var sign: Float = 1
        var sd = ShapeDef()
        sd.friction = 0.5
        for i in 0..<20 {
            for j in 0..<150 {
                var bd = BodyDef()
                bd.position = pt(2 * Float(i) - 19 + 0.25 * sign, 5.575 + 2.25 * Float(j))
                sign = -sign
                let b = w.createBody(bd)
                w.createShape(on: b, sd, .polygon(t1))
                w.createShape(on: b, sd, .polygon(t2))
            }
        }
        return nil
    }
}

extension BodyDef {
    package static func with(type: BodyType, position: Vec2 = .zero) -> BodyDef {
        var d = BodyDef()
        d.type = type
        d.position = position
        return d
    }
}
