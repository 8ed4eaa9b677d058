// Package schema compiles JSON Schemas and validates values against them
// with github.com/santhosh-tekuri/jsonschema, turning failures into one line
// per field that names the field and the rule it broke, fit to hand back to
// a model.
package schema
