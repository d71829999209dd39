// simdax._simdax: the C API for the Python package. The package
// (python/simdax) turns numpy and torch arrays into the calls made here;
// this module only creates operators, checks layouts and runs kernels.
#include <nanobind/nanobind.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "isa_cap.hpp"
#include "operator_factories.hpp"
#include "transformer_factories.hpp"

namespace nb = nanobind;
using namespace nb::literals;
using namespace simdax_py;

namespace {

std::vector<std::string> isa_names(int (*predicate)(simdax_isa)) {
    std::vector<std::string> names;
    for (int i = 0; i < SIMDAX_ISA_COUNT; ++i)
        if (predicate(simdax_isa(i))) names.emplace_back(simdax_isa_name(simdax_isa(i)));
    return names;
}

std::optional<ActivationArgs> activation_args(const std::optional<std::string>& name,
                                              std::optional<float> alpha, std::optional<float> beta,
                                              std::optional<float> gamma) {
    if (!name) return std::nullopt;
    return ActivationArgs{*name, alpha, beta, gamma};
}

void bind_operator(nb::module_& m) {
    nb::class_<Operator>(m, "Operator",
                         "A created simdax operator: the tensors it was created for, and execute.")
        .def("execute", &Operator::execute, "input"_a.noconvert(), "output"_a.noconvert(),
             "scale"_a.noconvert() = nb::none(), "bias"_a.noconvert() = nb::none(), "threads"_a = 1,
             "Runs the operator with the GIL released. Each array must have the dtype, shape "
             "and element strides the operator was created for. threads > 1 splits the work "
             "over a shared built-in pool of that many threads.")
        .def("execute_addresses", &Operator::execute_addresses, "input"_a, "output"_a,
             "scale"_a.none() = nb::none(), "bias"_a.none() = nb::none(), "threads"_a = 1,
             "execute on addresses of element 0, for a caller that has checked the layouts "
             "(no check here: wrong addresses corrupt memory).")
        .def("execute_operands", &Operator::execute_operands, "inputs"_a, "outputs"_a, "threads"_a = 1,
             "Runs with arrays by simdax operand index (inputs: {index: array} only read, "
             "outputs: {index: array} written): every operand the operator was created with.")
        .def("execute_operand_addresses", &Operator::execute_operand_addresses, "addresses"_a,
             "threads"_a = 1, "execute_operands on addresses of element 0 (no layout check).")
        .def("describe", &Operator::describe, "The library's one-line plan description.")
        .def_prop_ro("isa", &Operator::isa, "The ISA the operator was planned for.")
        .def_prop_ro("has_scale", &Operator::has_scale)
        .def_prop_ro("has_bias", &Operator::has_bias);
}

void bind_tensor_spec(nb::module_& m) {
    nb::class_<TensorSpec>(m, "TensorSpec", "dtype, shape and element strides of one operand.")
        .def(
            "__init__",
            [](TensorSpec* self, const std::string& dtype, const Dims& shape,
               const std::optional<Dims>& strides) {
                new (self) TensorSpec(dtype_from_name(dtype), shape, strides);
            },
            "dtype"_a, "shape"_a, "strides"_a.none() = nb::none(),
            "strides in elements, any sign (0: broadcast, inputs only); None: packed row-major.")
        .def_prop_ro("dtype", [](const TensorSpec& s) { return std::string(dtype_name(s.dtype)); })
        .def_ro("shape", &TensorSpec::sizes)
        .def_prop_ro("strides", &TensorSpec::element_strides);
}

void bind_factories(nb::module_& m) {
    m.def("make_axes_operator", &make_axes_operator, "kind"_a, "input"_a, "output"_a, "axes"_a,
          "isa"_a.none(), nb::rv_policy::take_ownership,
          "LogSoftmax, Softmax or Hardmax (kind) over axes (negative: from the end).");
    m.def(
        "make_mvn_operator",
        [](const TensorSpec& input, const TensorSpec& output, const Dims& axes,
           const std::optional<TensorSpec>& scale, const std::optional<TensorSpec>& bias,
           bool normalize_variance, float epsilon, const std::string& epsilon_placement,
           const std::optional<std::string>& activation, std::optional<float> alpha,
           std::optional<float> beta, std::optional<float> gamma, const OptionalIsa& isa) {
            return make_mvn_operator(input, output, axes, scale, bias, normalize_variance, epsilon,
                                     epsilon_placement, activation_args(activation, alpha, beta, gamma), isa);
        },
        "input"_a, "output"_a, "axes"_a, "scale"_a.none(), "bias"_a.none(), "normalize_variance"_a,
        "epsilon"_a, "epsilon_placement"_a, "activation"_a.none(), "alpha"_a.none(), "beta"_a.none(),
        "gamma"_a.none(), "isa"_a.none(), nb::rv_policy::take_ownership,
        "MeanVarianceNormalization with optional scale/bias and fused activation; "
        "epsilon_placement 'directml' (variance) or 'onnx' (standard deviation).");
    m.def("make_hard_sigmoid_operator", &make_hard_sigmoid_operator, "input"_a, "output"_a, "alpha"_a,
          "beta"_a, "isa"_a.none(), nb::rv_policy::take_ownership,
          "HardSigmoid max(0, min(alpha*x+beta, 1)).");
    m.def(
        "make_activation_operator",
        [](const TensorSpec& input, const TensorSpec& output, const std::string& activation,
           std::optional<float> alpha, std::optional<float> beta, std::optional<float> gamma,
           const OptionalIsa& isa) {
            return make_activation_operator(input, output, ActivationArgs{activation, alpha, beta, gamma},
                                            isa);
        },
        "input"_a, "output"_a, "activation"_a, "alpha"_a.none(), "beta"_a.none(), "gamma"_a.none(),
        "isa"_a.none(), nb::rv_policy::take_ownership,
        "A standalone element-wise activation (None parameters: DirectML's defaults).");
    m.def("make_cast_operator", &make_cast_operator, "input"_a, "output"_a, "isa"_a.none(),
          nb::rv_policy::take_ownership, "Cast to the output's dtype, rounded to nearest even.");
}

void bind_transformer_factories(nb::module_& m) {
    m.def("make_attention_softmax_operator", &make_attention_softmax_operator, "operands"_a, "scale"_a,
          "softcap"_a, "causal"_a, "window"_a, "log"_a, "isa"_a.none(), nb::rv_policy::take_ownership,
          "AttentionSoftmax; operands: {simdax_operand index: TensorSpec}, input and output required.");
    m.def("make_normalization_operator", &make_normalization_operator, "rms"_a, "operands"_a, "axis"_a,
          "epsilon"_a, "isa"_a.none(), nb::rv_policy::take_ownership,
          "LayerNormalization (rms False) or RMSNormalization; operands by simdax_operand index.");
}

void bind_library_info(nb::module_& m) {
    m.def(
        "version", [] { return std::string(simdax_version()); }, "The library's version.");
    m.def(
        "active_isa", [] { return std::string(simdax_isa_name(simdax_active_isa())); },
        "The ISA operators created now get: the best supported one under the cap.");
    m.def(
        "supported_isas", [] { return isa_names(simdax_isa_supported); },
        "ISAs compiled in that this CPU and OS run.");
    m.def(
        "compiled_isas", [] { return isa_names(simdax_isa_compiled); }, "ISAs compiled into this build.");
    m.def("set_max_isa", &set_max_isa, "isa"_a,
          "Caps the ISA of operators created afterwards, process-wide (simdax_set_max_isa).");
    m.def("cpu_name", [] { return std::string(simdax_cpu_name()); });
    m.def("cpu_features", [] { return std::string(simdax_cpu_features()); });
    m.def("activation_names", &activation_names, "Every activation name, in the C API's order.");
    m.def(
        "activation_defaults",
        [](const std::string& name) {
            const simdax_activation_desc d = activation_desc({name, {}, {}, {}});
            return nb::make_tuple(d.alpha, d.beta, d.gamma);
        },
        "name"_a, "(alpha, beta, gamma): DirectML's defaults for the activation.");
}

}  // namespace

NB_MODULE(_simdax, m) {
    m.doc() = "simdax C API binding; use the simdax package, not this module.";
    bind_tensor_spec(m);
    bind_operator(m);
    bind_factories(m);
    bind_transformer_factories(m);
    bind_library_info(m);
}
