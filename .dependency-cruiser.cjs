/**
 * The layers' import rules (npm run lint:deps; decision 017). Arrows go down:
 *   routes → composition, domain, http, components, lib
 *   domain → db, adapters, infra, lib
 *   db, adapters, http, infra, lib → never up into domain or routes
 * and nothing imports in a circle.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle makes load order matter and the pieces inseparable.",
      from: {},
      to: { circular: true },
    },
    {
      name: "lower-layers-not-into-domain",
      severity: "error",
      comment:
        "The database, adapters, HTTP plumbing, infrastructure and pure rules know nothing of the shop's workflows.",
      // the demo seeds (app/db/seed) are the exception: they build the shop's data with the domain's
      // own functions (stock through the inventory), as the tests' factories do
      from: { path: "^app/(db|adapters|http|infra|lib)/", pathNot: "\\.test\\.tsx?$|^app/db/seed/" },
      to: { path: "^app/domain/" },
    },
    {
      name: "components-use-domain-types-only",
      severity: "error",
      comment: "Components may name the domain's types and pure rules, never run its server code.",
      from: { path: "^app/components/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^app/domain/.*\\.server\\.tsx?$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "nothing-into-routes",
      severity: "error",
      comment: "Routes are the top: nothing but the router imports them.",
      from: { path: "^app/", pathNot: "^app/routes/|\\.test\\.tsx?$" },
      to: { path: "^app/routes/" },
    },
    {
      name: "routes-not-into-db",
      severity: "error",
      comment: "Routes reach the database through the domain and the services in their context.",
      from: { path: "^app/routes/" },
      to: { path: "^app/db/" },
    },
    {
      name: "no-composition-below-the-top",
      severity: "error",
      comment: "Only the server, the CLI, tests and the entry assemble the app.",
      from: { path: "^app/(db|adapters|http|infra|lib|components|domain|jobs)/", pathNot: "\\.test\\.tsx?$" },
      to: { path: "^app/composition\\.server\\.ts$" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|build|\\.build-versions|test-results|bench/results)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
};
