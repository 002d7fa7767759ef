// swift-tools-version: 6.0
import PackageDescription

// Two layers, each its own target, so the compiler keeps the seam (ARCHITECTURE.md has the map):
// `DynamicsEngine` is the internal rigid-body engine reached through `package` access;
// `Dynamics` is the public UIKit-Dynamics-shaped API.
let package = Package(
    name: "swift-dynamics",
    products: [
        .library(name: "Dynamics", targets: ["Dynamics"]),
        .executable(name: "bench", targets: ["bench"]),
        .executable(name: "playground", targets: ["playground"]),
    ],
    targets: [
        .target(name: "DynamicsEngine"),
        .target(name: "Dynamics", dependencies: ["DynamicsEngine"]),
        .target(name: "DynamicsScenes", dependencies: ["Dynamics", "DynamicsEngine"]),
        .executableTarget(name: "bench", dependencies: ["DynamicsScenes", "DynamicsEngine", "Dynamics"], path: "Benchmarks",
                          exclude: ["results", "README.md"]),
        .executableTarget(name: "playground", dependencies: ["DynamicsScenes", "Dynamics"], path: "Playground"),
        .testTarget(name: "DynamicsEngineTests", dependencies: ["DynamicsEngine", "DynamicsScenes"]),
        .testTarget(name: "DynamicsTests", dependencies: ["Dynamics", "DynamicsScenes"],
                    exclude: ["Output/Golden", "Reliability/Golden"]),   // golden frames and snapshots, read through #filePath
    ],
    swiftLanguageModes: [.v6]
)
