// The C interface of FMI 2.0 for Co-Simulation, as the standard defines it (Functional
// Mock-up Interface 2.0, Modelica Association, 2014: section 2.1 for the types and the
// functions common to both interface types, section 4.2 for those of Co-Simulation),
// written here from that text. The importer (components/fmi: "fmi.cosimulation") looks
// these functions up in an FMU's binary; the exporter (apps/fmu) defines them.
//
// Only what Co-Simulation needs is declared; Model Exchange's functions are not.
#pragma once

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---- 2.1.2 platform-dependent types (the "default" platform) ----
typedef void* fmi2Component;             // an instance of the FMU
typedef void* fmi2ComponentEnvironment;  // the importer's pointer, handed back to its callbacks
typedef void* fmi2FMUstate;              // a saved state of an instance
typedef unsigned int fmi2ValueReference; // identifies a variable (modelDescription.xml)
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char* fmi2String;
typedef char fmi2Byte;

#define fmi2True 1
#define fmi2False 0

// ---- 2.1.3 status returned by the functions ----
typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;

// ---- 2.1.5 creation of an instance ----
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;

// The importer's services. The logger formats `message` as printf does with the extra
// arguments; a '#' ... '#' pair in it may name a variable by type and value reference.
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment environment, fmi2String instanceName, fmi2Status status,
                                   fmi2String category, fmi2String message, ...);
typedef void* (*fmi2CallbackAllocateMemory)(size_t count, size_t size);  // like calloc
typedef void (*fmi2CallbackFreeMemory)(void* object);                    // like free
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment environment, fmi2Status status);  // asynchronous steps

typedef struct {
  const fmi2CallbackLogger logger;
  const fmi2CallbackAllocateMemory allocateMemory;
  const fmi2CallbackFreeMemory freeMemory;
  const fmi2StepFinished stepFinished;  // may be NULL: steps are then synchronous
  const fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;

// ---- 4.2.3 what fmi2GetStatus and its companions report ----
typedef enum { fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated } fmi2StatusKind;

// ---- 2.1.4 inquire the platform and version ----
const char* fmi2GetTypesPlatform(void);  // "default"
const char* fmi2GetVersion(void);        // "2.0"
fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean loggingOn, size_t nCategories,
                               const fmi2String categories[]);

// ---- 2.1.5 creation, destruction and logging ----
fmi2Component fmi2Instantiate(fmi2String instanceName, fmi2Type fmuType, fmi2String fmuGUID,
                              fmi2String fmuResourceLocation, const fmi2CallbackFunctions* functions,
                              fmi2Boolean visible, fmi2Boolean loggingOn);
void fmi2FreeInstance(fmi2Component c);

// ---- 2.1.6 initialization, termination and reset ----
fmi2Status fmi2SetupExperiment(fmi2Component c, fmi2Boolean toleranceDefined, fmi2Real tolerance, fmi2Real startTime,
                               fmi2Boolean stopTimeDefined, fmi2Real stopTime);
fmi2Status fmi2EnterInitializationMode(fmi2Component c);
fmi2Status fmi2ExitInitializationMode(fmi2Component c);
fmi2Status fmi2Terminate(fmi2Component c);
fmi2Status fmi2Reset(fmi2Component c);

// ---- 2.1.7 getting and setting variable values ----
fmi2Status fmi2GetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Real value[]);
fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Integer value[]);
fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2Boolean value[]);
fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, fmi2String value[]);
fmi2Status fmi2SetReal(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Real value[]);
fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Integer value[]);
fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2Boolean value[]);
fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t nvr, const fmi2String value[]);

// ---- 2.1.8 getting and setting the complete state ----
fmi2Status fmi2GetFMUstate(fmi2Component c, fmi2FMUstate* state);
fmi2Status fmi2SetFMUstate(fmi2Component c, fmi2FMUstate state);
fmi2Status fmi2FreeFMUstate(fmi2Component c, fmi2FMUstate* state);
fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate state, size_t* size);
fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate state, fmi2Byte serializedState[], size_t size);
fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte serializedState[], size_t size,
                                   fmi2FMUstate* state);

// ---- 2.1.9 partial derivatives ----
fmi2Status fmi2GetDirectionalDerivative(fmi2Component c, const fmi2ValueReference vUnknown_ref[], size_t nUnknown,
                                        const fmi2ValueReference vKnown_ref[], size_t nKnown,
                                        const fmi2Real dvKnown[], fmi2Real dvUnknown[]);

// ---- 4.2.1 transfer of input and output derivatives ----
fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                       const fmi2Integer order[], const fmi2Real value[]);
fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c, const fmi2ValueReference vr[], size_t nvr,
                                        const fmi2Integer order[], fmi2Real value[]);

// ---- 4.2.2 computation: one communication step ----
fmi2Status fmi2DoStep(fmi2Component c, fmi2Real currentCommunicationPoint, fmi2Real communicationStepSize,
                      fmi2Boolean noSetFMUStatePriorToCurrentPoint);
fmi2Status fmi2CancelStep(fmi2Component c);

// ---- 4.2.3 status of a step ----
fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status* value);
fmi2Status fmi2GetRealStatus(fmi2Component c, const fmi2StatusKind s, fmi2Real* value);
fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s, fmi2Integer* value);
fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s, fmi2Boolean* value);
fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s, fmi2String* value);

#ifdef __cplusplus
}  // extern "C"
#endif
